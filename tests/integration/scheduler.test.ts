import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { claimSource, LEASE_MS, releaseSource, runLeased } from "@/server/domain/catalog/lease";
import { closeInterruptedChecks, startScheduler } from "@/server/domain/catalog/scheduler";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { paged, type RunningServer, simpleTool, startRawServer, startSdkServer } from "../helpers/mcp-servers";

withTestDatabase();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("scheduled catalog checks", () => {
  it("check due Connections on their interval, and two instances never run the same check twice", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("a"), simpleTool("b")] });
    servers.push(server);
    const created = await Promise.all([1, 2, 3].map((i) => connectionTo(server.url, { name: `sched-${i}` })));
    const db = await getDb();

    // Two schedulers (as on two app instances) race for the same due Sources.
    const one = startScheduler({ intervalMs: 60_000, concurrency: 3 });
    const two = startScheduler({ intervalMs: 60_000, concurrency: 3 });
    try {
      await Promise.all([one.tick(), two.tick()]);
      for (const { source } of created) {
        const checks = await db.catalogCheck.findMany({ where: { sourceId: source.id } });
        // A new Connection's first check is labelled as its creation's, though the scheduler ran it.
        expect(checks.map((c) => `${c.trigger}:${c.status}`)).toEqual(["create:succeeded"]);
        const row = await db.source.findUniqueOrThrow({ where: { id: source.id } });
        expect(row.toolCount).toBe(2);
        expect(row.leaseUntil).toBeNull();
        // The next check is one interval away (1 h by default).
        expect(row.nextCheckAt!.getTime() - Date.now()).toBeGreaterThan(3500_000);
      }
      // Nothing is due now: another round checks nothing.
      await Promise.all([one.tick(), two.tick()]);
      expect(await db.catalogCheck.count({ where: { sourceId: { in: created.map((c) => c.source.id) } } })).toBe(3);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it("a paused Connection is not checked on schedule", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("p")] });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    await api.sources.update({ id: source.id, paused: true });
    const scheduler = startScheduler({ intervalMs: 60_000 });
    await scheduler.tick();
    await scheduler.stop();
    const db = await getDb();
    expect(await db.catalogCheck.count({ where: { sourceId: source.id } })).toBe(0);
    expect((await api.sources.get({ id: source.id })).paused).toBe(true);
  });

  it("a Source removed while its scheduled check runs leaves nothing behind and breaks nothing", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let listing: () => void = () => {};
    const started = new Promise<void>((r) => {
      listing = r;
    });
    const server = await startRawServer(async (call) => {
      listing();
      await gate;
      return paged([simpleTool("late")], 10)(call);
    });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    const scheduler = startScheduler({ intervalMs: 60_000 });
    const round = scheduler.tick();
    await started;
    await api.sources.delete({ id: source.id });
    release();
    await round;
    await scheduler.stop();

    const db = await getDb();
    expect(await db.source.findUnique({ where: { id: source.id } })).toBeNull();
    expect(await db.tool.count({ where: { sourceId: source.id } })).toBe(0);
    expect(await db.catalogCheck.count({ where: { sourceId: source.id } })).toBe(0);
    await expect(api.sources.get({ id: source.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("Check now during a running check waits for it instead of starting another", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const server = await startRawServer(async (call) => {
      await gate;
      return paged([simpleTool("slow")], 10)(call);
    });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    const first = api.sources.checkNow({ id: source.id });
    await new Promise((r) => setTimeout(r, 300));
    const progress = await api.sources.checkProgress({ id: source.id });
    expect(progress).toMatchObject({ pages: 0, tools: 0 });
    const second = api.sources.checkNow({ id: source.id });
    // Let the first check finish only once the second request is in (its audit entry is written).
    const db0 = await getDb();
    const requests = () => db0.auditEvent.count({ where: { action: "source.check_now", targetId: source.id } });
    for (let i = 0; i < 200 && (await requests()) < 2; i++) await new Promise((r) => setTimeout(r, 25));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(b.checkId).toBe(a.checkId);
    const db = await getDb();
    expect(await db.catalogCheck.count({ where: { sourceId: source.id } })).toBe(1);
    expect(await api.sources.checkProgress({ id: source.id })).toBeNull();
  });

  it("Check now when the last check has just ended, its lease not yet let go, runs a check instead of waiting it out", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("quick")] });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    const first = await api.sources.checkNow({ id: source.id });
    // An instance that finished its check but has not released the Source yet.
    expect(await claimSource(source.id)).toBe(true);
    const asked = api.sources.checkNow({ id: source.id });
    await new Promise((r) => setTimeout(r, 400));
    await releaseSource(source.id, null);
    const outcome = await asked;
    expect(outcome).toMatchObject({ status: "succeeded", tools: 1 });
    expect(outcome.checkId).not.toBe(first.checkId);
  }, 20_000);

  it("a check that outlives its first lease period keeps its Source: no other instance can claim it meanwhile", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("slow")] });
    servers.push(server);
    const { source } = await connectionTo(server.url);
    const start = Date.now();
    expect(await claimSource(source.id, new Date(start))).toBe(true);
    const claimedByOther = await runLeased(
      source.id,
      async () => {
        await new Promise((r) => setTimeout(r, 400)); // renewed every 50 ms meanwhile
        // Another instance looks once the first lease period would have ended.
        return claimSource(source.id, new Date(start + LEASE_MS + 100));
      },
      50,
    );
    expect(claimedByOther).toBe(false);
    // Let go at the end: the Source can be claimed again at once.
    expect(await claimSource(source.id)).toBe(true);
    await releaseSource(source.id, null);
  });

  it("closes the checks of an instance that stopped, and never a check whose Source is still leased", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("x")] });
    servers.push(server);
    const alive = (await connectionTo(server.url)).source;
    const dead = (await connectionTo(server.url)).source;
    const db = await getDb();
    const longAgo = new Date(Date.now() - 10 * 60_000);
    const [running, orphaned] = await Promise.all(
      [alive, dead].map((s) =>
        db.catalogCheck.create({ data: { sourceId: s.id, trigger: "schedule", startedAt: longAgo } }),
      ),
    );
    // A long check still running: its instance holds and renews the lease.
    expect(await claimSource(alive.id)).toBe(true);
    try {
      expect(await closeInterruptedChecks()).toBe(1);
      const after = await db.catalogCheck.findMany({ where: { id: { in: [running!.id, orphaned!.id] } } });
      expect(Object.fromEntries(after.map((c) => [c.sourceId, c.status]))).toEqual({
        [alive.id]: "running",
        [dead.id]: "failed",
      });
      expect(after.find((c) => c.sourceId === dead.id)?.failureCode).toBe("CATALOG_CHECK_FAILED");
    } finally {
      await releaseSource(alive.id, null);
    }
  });

  it("stopping lets a running check finish until the deadline, interrupts one that outlasts it, and lets go of both leases", async () => {
    const db = await getDb();
    const only = async (sourceId: string) =>
      db.source.updateMany({ where: { id: { not: sourceId } }, data: { nextCheckAt: null } });

    // Finishes within the grace period: it completes and publishes.
    const slow = await startRawServer(() => ({ result: { tools: [simpleTool("s")] }, delayMs: 1_000 }));
    servers.push(slow);
    const finishing = (await connectionTo(slow.url)).source;
    await only(finishing.id);
    const first = startScheduler({ intervalMs: 50 });
    await expect.poll(() => slow.requests.some((r) => r.rpcMethod === "tools/list"), { timeout: 10_000 }).toBe(true);
    await first.stop(Date.now() + 20_000);
    expect((await db.catalogCheck.findMany({ where: { sourceId: finishing.id } })).map((c) => c.status)).toEqual([
      "succeeded",
    ]);
    expect((await db.source.findUniqueOrThrow({ where: { id: finishing.id } })).leaseOwner).toBeNull();

    // Outlasts it: interrupted at the deadline, nothing published, the lease let go.
    const hung = await startRawServer(() => ({ hang: true }));
    servers.push(hung);
    const cut = (await connectionTo(hung.url)).source;
    await only(cut.id);
    const second = startScheduler({ intervalMs: 50 });
    await expect.poll(() => hung.requests.some((r) => r.rpcMethod === "tools/list"), { timeout: 10_000 }).toBe(true);
    const stopping = Date.now();
    await second.stop(Date.now() + 300);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    const checks = await db.catalogCheck.findMany({ where: { sourceId: cut.id } });
    expect(checks.map((c) => c.status)).toEqual(["failed"]);
    const row = await db.source.findUniqueOrThrow({ where: { id: cut.id } });
    expect(row.leaseOwner).toBeNull();
    expect(row.toolCount).toBe(0);
  });
});
