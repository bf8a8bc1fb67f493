/**
 * A check whose process died must not hold its Source: on the embedded database the next
 * start lets go at once (only one process can hold the data); on PostgreSQL, where other
 * instances may be alive, the short lease lapses on its own because nobody renews it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import {
  claimSource,
  INTERRUPTED,
  LEASE_MS,
  releaseHeldLeases,
  releaseSource,
  runLeased,
} from "@/server/domain/catalog/lease";
import { startScheduler } from "@/server/domain/catalog/scheduler";
import { prepareDatabase } from "@/server/domain/system/bootstrap";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { type RunningServer, simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { usePostgres } from "../helpers/template";

withTestDatabase();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A Source as a killed process leaves it: leased by an instance that is gone, a check "running". */
async function crashedCheck() {
  const server = await startSdkServer({ catalog: () => [simpleTool("lookup")] });
  servers.push(server);
  const { api, source } = await connectionTo(server.url);
  const db = await getDb();
  await db.source.update({
    where: { id: source.id },
    data: { leaseOwner: "gone-host:4242:dead", leaseUntil: new Date(Date.now() + LEASE_MS) },
  });
  const check = await db.catalogCheck.create({ data: { sourceId: source.id, trigger: "manual" } });
  return { api, source, check };
}

describe("leases of a check whose process died", () => {
  it.skipIf(usePostgres)("are let go at the next start on the embedded database: Check now runs at once", async () => {
    const { api, source, check } = await crashedCheck();
    await prepareDatabase();
    const db = await getDb();
    expect(await db.catalogCheck.findUniqueOrThrow({ where: { id: check.id } })).toMatchObject({
      status: "failed",
      failureCode: "CATALOG_CHECK_FAILED",
      failureMessage: INTERRUPTED,
    });
    // Before, Check now waited for the dead lease (two minutes) to run out.
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "succeeded", tools: 1 });
    expect(outcome.checkId).not.toBe(check.id);
    expect(await api.sources.checkProgress({ id: source.id })).toBeNull();
  });

  it.runIf(usePostgres)(
    "are kept at a start on PostgreSQL (another instance may be alive) and lapse within the short lease",
    async () => {
      const { source, check } = await crashedCheck();
      await prepareDatabase();
      const now = Date.now();
      expect(await claimSource(source.id, new Date(now))).toBe(false);
      expect(LEASE_MS).toBeLessThanOrEqual(30_000);
      expect(await claimSource(source.id, new Date(now + LEASE_MS + 1000))).toBe(true);
      // The instance that takes over closes the dead one's check before running its own.
      await runLeased(source.id, async () => {
        const db = await getDb();
        expect((await db.catalogCheck.findUniqueOrThrow({ where: { id: check.id } })).failureMessage).toBe(INTERRUPTED);
      });
    },
  );

  it("a Check now cut off by its instance's shutdown is run again by a scheduler, as a scheduled check is", async () => {
    const { api, source } = await crashedCheck();
    const db = await getDb();
    await db.source.update({ where: { id: source.id }, data: { leaseOwner: null, leaseUntil: null } });
    await db.catalogCheck.updateMany({ where: { sourceId: source.id }, data: { status: "failed" } });
    // Checked once: the next scheduled check is an interval away.
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const scheduledAt = (await db.source.findUniqueOrThrow({ where: { id: source.id } })).nextCheckAt;
    expect(scheduledAt?.getTime()).toBeGreaterThan(Date.now() + 60_000);

    // Check now on an instance that is then drained past its grace period: the check is cut
    // off while running, the shutdown lets go of the lease without rescheduling.
    const claimedAt = new Date();
    expect(await claimSource(source.id, claimedAt)).toBe(true);
    const cut = await db.catalogCheck.create({ data: { sourceId: source.id, trigger: "manual" } });
    expect(await releaseHeldLeases()).toBe(1);

    const scheduler = startScheduler({ intervalMs: 3_600_000 });
    try {
      await scheduler.tick();
    } finally {
      await scheduler.stop();
    }
    expect(await db.catalogCheck.findUniqueOrThrow({ where: { id: cut.id } })).toMatchObject({
      status: "failed",
      failureMessage: INTERRUPTED,
    });
    const rerun = await db.catalogCheck.findFirst({
      where: { sourceId: source.id, trigger: "schedule", startedAt: { gte: claimedAt } },
    });
    expect(rerun?.status).toBe("succeeded");
  });

  it("a check whose lease lapsed and was taken over is told to stop (it must not publish over the new one)", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("lookup")] });
    servers.push(server);
    const { source } = await connectionTo(server.url);
    expect(await claimSource(source.id)).toBe(true);
    const db = await getDb();
    const reason = await runLeased(
      source.id,
      async (lost) => {
        // Another instance claims the Source after this one's lease lapsed (a stalled event loop).
        await db.source.update({ where: { id: source.id }, data: { leaseOwner: "other-instance" } });
        await new Promise<void>((resolve) => lost.addEventListener("abort", () => resolve(), { once: true }));
        return (lost.reason as Error).message;
      },
      50,
    );
    expect(reason).toMatch(/lease lapsed and another instance took the check over/);
    await releaseSource(source.id, null);
  });
});
