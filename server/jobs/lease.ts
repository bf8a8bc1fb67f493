/**
 * The one lease every area's background work claims its rows with (a Source's next check,
 * a scope's consolidator pass): a row-lock (`FOR UPDATE SKIP LOCKED`) that works the same
 * on PGlite and PostgreSQL, so any number of instances sharing one database never run the
 * same job twice; short, and renewed by a heartbeat while the job runs, so a crashed
 * instance's rows are taken up by another once its lease lapses.
 */
import { getDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { INSTANCE_ID } from "../instance";

/** The tables whose rows carry a lease ("leaseUntil", "leaseOwner"), and the column saying when each is due. */
const LEASED = {
  source: "nextCheckAt",
  scope: "nextConsolidationAt",
} as const;
export type LeasedTable = keyof typeof LEASED;

/**
 * Claims up to `limit` rows of `table` that are due and not leased (or whose lease lapsed),
 * soonest due first; `where` narrows which rows may be claimed at all.
 */
export async function claimDue(
  table: LeasedTable,
  {
    limit,
    leaseMs,
    now = new Date(),
    where = Prisma.sql`TRUE`,
  }: {
    limit: number;
    leaseMs: number;
    now?: Date;
    where?: Prisma.Sql;
  },
): Promise<string[]> {
  const db = await getDb();
  const until = new Date(now.getTime() + leaseMs);
  // Identifiers come from LEASED above, never from input.
  const name = Prisma.raw(table);
  const due = Prisma.raw(`"${LEASED[table]}"`);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE ${name} SET "leaseUntil" = ${until}, "leaseOwner" = ${INSTANCE_ID}
    WHERE id IN (
      SELECT id FROM ${name}
      WHERE ${where}
        AND ${due} IS NOT NULL AND ${due} <= ${now}
        AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY ${due}
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`;
  return rows.map((r) => r.id);
}

/**
 * Renews this instance's lease on the row every `everyMs` until the returned stop is
 * called; `onLost` hears once when a renewal finds the lease taken by another instance.
 */
export function holdLease(
  table: LeasedTable,
  id: string,
  { leaseMs, everyMs = leaseMs / 3, onLost }: { leaseMs: number; everyMs?: number; onLost?: () => void },
): () => void {
  const name = Prisma.raw(table);
  const beat = setInterval(() => {
    getDb()
      .then(
        (db) =>
          db.$executeRaw`UPDATE ${name} SET "leaseUntil" = ${new Date(Date.now() + leaseMs)}
            WHERE id = ${id} AND "leaseOwner" = ${INSTANCE_ID}`,
      )
      .then((count) => {
        if (count === 0) onLost?.();
      })
      .catch(() => {}); // the next beat tries again; the lease has two more periods to run
  }, everyMs);
  beat.unref();
  return () => clearInterval(beat);
}
