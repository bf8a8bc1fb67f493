import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { claimSource, releaseSource } from "@/server/domain/catalog/lease";
import { startScheduler } from "@/server/domain/catalog/scheduler";
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
        expect(checks.map((c) => `${c.trigger}:${c.status}`)).toEqual(["schedule:succeeded"]);
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
});
