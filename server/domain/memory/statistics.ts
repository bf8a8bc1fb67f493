/**
 * The planner's statistics of the tables memory search reads, kept fresh on the embedded
 * database. PostgreSQL's autovacuum analyzes a table once enough of it changed; PGlite runs
 * no autovacuum, so without this a scope that grew from empty is planned as if it were
 * still empty (a sequential scan where the full-text index would answer, a nested loop over
 * thousands of rows). The memory scheduler calls this each round, so no search ever pays for
 * an ANALYZE, and a table is analyzed only when autovacuum would have done it.
 */
import { getDb } from "../../db";
import { INSTANCE_LIMITS } from "../../limits";

/** The tables search plans over (search.ts, access.ts). */
const SEARCH_TABLES = ["memory", "memory_lexeme", "thread_member"] as const;

/** autovacuum_analyze_scale_factor's default: a tenth of a large table must change first. */
const CHANGED_SHARE = 0.1;

/**
 * Analyzes each search table in which more rows changed since its last ANALYZE than
 * MEMORY_STATISTICS_CHANGED_ROWS or a tenth of its rows; returns the tables analyzed.
 */
export async function refreshSearchStatistics(): Promise<string[]> {
  const db = await getDb();
  // reltuples is -1 until a table's first ANALYZE; the counts are the statistics collector's
  // (flushed at most once a second, so a change a moment old may wait for the next round).
  const rows = await db.$queryRawUnsafe<{ table: string; changed: bigint; rows: number }[]>(
    `SELECT s.relname AS "table", s.n_mod_since_analyze AS changed, greatest(c.reltuples, 0)::float8 AS rows
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = current_schema() AND s.relname = ANY($1::text[])`,
    [...SEARCH_TABLES],
  );
  const due = rows
    .filter(
      (r) =>
        Number(r.changed) >=
        Math.max(INSTANCE_LIMITS.MEMORY_STATISTICS_CHANGED_ROWS.value, CHANGED_SHARE * Number(r.rows)),
    )
    .map((r) => r.table)
    .filter((t): t is (typeof SEARCH_TABLES)[number] => (SEARCH_TABLES as readonly string[]).includes(t));
  // Names from the list above only, never from input.
  if (due.length) await db.$executeRawUnsafe(`ANALYZE ${due.map((t) => `"${t}"`).join(", ")}`);
  return due;
}
