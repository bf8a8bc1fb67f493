/**
 * Who runs a Source's next check. A lease row-lock (`FOR UPDATE SKIP LOCKED`) works the
 * same on PGlite and PostgreSQL, so any number of instances sharing one database never
 * run the same check twice. Leases are short and renewed by a heartbeat while the check
 * runs, so a crashed instance's lease lapses within LEASE_MS; on the embedded database,
 * where one process holds the data, a start clears them at once (clearLeasesAtStart).
 */
import { getDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { INSTANCE_ID } from "../../instance";
import { claimDue, holdLease } from "../../jobs/lease";
import { INSTANCE_LIMITS } from "../../limits";
import { CHECK_INTERVALS } from "../sources/schemas";

/**
 * How long a lease lasts unless renewed: how soon another instance takes over the Source
 * of one that died. A running check renews it every LEASE_RENEW_MS (a heartbeat), so a
 * check that waits for a lock or commits slowly keeps it; two heartbeats may be missed
 * (a busy event loop) before it lapses. Shorter than a check may run (CHECK_WALL_CLOCK_MS):
 * the heartbeat, not the lease, covers a long check.
 */
export const LEASE_MS = INSTANCE_LIMITS.CHECK_LEASE_MS.value;
export const LEASE_RENEW_MS = LEASE_MS / 3;

export const INTERRUPTED = "Interrupted: Quartermaster stopped while this check was running.";
export { INSTANCE_ID };

/** Claims up to `limit` MCP Connections whose check is due. */
export function claimDueSources(limit: number, now = new Date()): Promise<string[]> {
  return claimDue("source", {
    limit,
    leaseMs: LEASE_MS,
    now,
    where: Prisma.sql`kind = 'mcp_connection' AND "pausedAt" IS NULL`,
  });
}

/**
 * Claims one Source for an on-demand check; false when another check holds it. The Source
 * is due from now on, so a check cut off with its instance (a drain past the grace period,
 * a kill) is run again by the next scheduler that sees its lease free, as a scheduled one
 * is; a check that ends schedules the next one interval later (runLeased).
 */
export async function claimSource(id: string, now = new Date()): Promise<boolean> {
  const db = await getDb();
  const until = new Date(now.getTime() + LEASE_MS);
  const claimed = await db.$executeRaw`
    UPDATE source SET "leaseUntil" = ${until}, "leaseOwner" = ${INSTANCE_ID},
      "nextCheckAt" = CASE WHEN "pausedAt" IS NULL THEN ${now} ELSE "nextCheckAt" END
    WHERE id = ${id} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})`;
  return claimed === 1;
}

/**
 * Runs `check` under a lease this instance holds, renewing it until the check ends, then
 * lets go and schedules the Source's next check one interval later (the interval as it is
 * then: an operator may have changed it meanwhile).
 */
export async function runLeased<T>(
  id: string,
  check: (signal: AbortSignal) => Promise<T>,
  renewEveryMs = LEASE_RENEW_MS,
): Promise<T> {
  const db = await getDb();
  // Holding the lease, this instance is the only one checking the Source: a check still
  // marked running belonged to a process that died.
  await db.catalogCheck.updateMany({
    where: { sourceId: id, status: "running" },
    data: {
      status: "failed",
      finishedAt: new Date(),
      failureCode: "CATALOG_CHECK_FAILED",
      failureMessage: INTERRUPTED,
    },
  });
  const lost = new AbortController();
  const stopRenewing = holdLease("source", id, {
    leaseMs: LEASE_MS,
    everyMs: renewEveryMs,
    // Lapsed and taken by another instance: this check must not publish over theirs.
    onLost: () =>
      lost.abort(new Error("Interrupted: this Source's lease lapsed and another instance took the check over.")),
  });
  try {
    return await check(lost.signal);
  } finally {
    stopRenewing();
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

/**
 * At shutdown, once this instance's checks have ended (or been cut off at the end of the
 * grace period): lets go of any lease it still holds, without rescheduling, so a Source
 * whose check was due stays due and another instance takes it at its next round instead
 * of waiting for the lease to lapse.
 */
export async function releaseHeldLeases(): Promise<number> {
  const db = await getDb();
  const { count } = await db.source.updateMany({
    where: { leaseOwner: INSTANCE_ID },
    data: { leaseUntil: null, leaseOwner: null },
  });
  return count;
}

/**
 * At the start of a process on the embedded database: only one process can hold its data,
 * so every lease left is a dead process's, and every check still marked running ended
 * with it. (On PostgreSQL other instances may be alive; their leases lapse on their own.)
 */
export async function clearLeasesAtStart(): Promise<{ leases: number; checks: number }> {
  const db = await getDb();
  const [leases, checks] = await db.$transaction([
    db.source.updateMany({ where: { leaseOwner: { not: null } }, data: { leaseUntil: null, leaseOwner: null } }),
    db.catalogCheck.updateMany({
      where: { status: "running" },
      data: {
        status: "failed",
        finishedAt: new Date(),
        failureCode: "CATALOG_CHECK_FAILED",
        failureMessage: INTERRUPTED,
      },
    }),
  ]);
  return { leases: leases.count, checks: checks.count };
}
