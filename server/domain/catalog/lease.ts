/**
 * Who runs a Source's next check. A lease row-lock (`FOR UPDATE SKIP LOCKED`) works the
 * same on PGlite and PostgreSQL, so any number of instances sharing one database never
 * run the same check twice, and a crashed instance's lease simply expires.
 */
import { hostname } from "node:os";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { CHECK_INTERVALS } from "../sources/schemas";

/**
 * How long a lease lasts unless renewed: how soon another instance takes over the Source
 * of one that died. A running check renews it every LEASE_RENEW_MS, so a check that waits
 * for a lock or commits slowly never outlives its lease.
 */
export const LEASE_MS = LIMITS.CHECK_WALL_CLOCK_MS.value * 4;
export const LEASE_RENEW_MS = LEASE_MS / 4;
export const INSTANCE_ID = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

/** Claims up to `limit` MCP Connections whose check is due. */
export async function claimDueSources(limit: number, now = new Date()): Promise<string[]> {
  const db = await getDb();
  const until = new Date(now.getTime() + LEASE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE source SET "leaseUntil" = ${until}, "leaseOwner" = ${INSTANCE_ID}
    WHERE id IN (
      SELECT id FROM source
      WHERE kind = 'mcp_connection' AND "pausedAt" IS NULL
        AND "nextCheckAt" IS NOT NULL AND "nextCheckAt" <= ${now}
        AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextCheckAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** Claims one Source for an on-demand check; false when another check holds it. */
export async function claimSource(id: string, now = new Date()): Promise<boolean> {
  const db = await getDb();
  const until = new Date(now.getTime() + LEASE_MS);
  const claimed = await db.$executeRaw`
    UPDATE source SET "leaseUntil" = ${until}, "leaseOwner" = ${INSTANCE_ID}
    WHERE id = ${id} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})`;
  return claimed === 1;
}

/**
 * Runs `check` under a lease this instance holds, renewing it until the check ends, then
 * lets go and schedules the Source's next check one interval later (the interval as it is
 * then: an operator may have changed it meanwhile).
 */
export async function runLeased<T>(id: string, check: () => Promise<T>, renewEveryMs = LEASE_RENEW_MS): Promise<T> {
  const db = await getDb();
  const renew = setInterval(() => {
    db.source
      .updateMany({
        where: { id, leaseOwner: INSTANCE_ID },
        data: { leaseUntil: new Date(Date.now() + LEASE_MS) },
      })
      .catch(() => {}); // the next renewal tries again; the lease has three more periods to run
  }, renewEveryMs);
  renew.unref();
  try {
    return await check();
  } finally {
    clearInterval(renew);
    const source = await db.source.findUnique({ where: { id }, select: { checkIntervalSeconds: true } });
    const interval = source?.checkIntervalSeconds ?? CHECK_INTERVALS.default;
    await releaseSource(id, source ? new Date(Date.now() + interval * 1000) : null);
  }
}

/** Releases a lease and schedules the next check. */
export async function releaseSource(id: string, nextCheckAt: Date | null): Promise<void> {
  const db = await getDb();
  await db.source.updateMany({
    where: { id, leaseOwner: INSTANCE_ID },
    data: { leaseUntil: null, leaseOwner: null, nextCheckAt },
  });
}
