/**
 * A check whose process died must not hold its Source: on the embedded database the next
 * start lets go at once (only one process can hold the data); on PostgreSQL, where other
 * instances may be alive, the short lease lapses on its own because nobody renews it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { claimSource, INTERRUPTED, LEASE_MS, releaseSource, runLeased } from "@/server/domain/catalog/lease";
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
