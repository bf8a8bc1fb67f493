/**
 * The embedded database has no autovacuum: the memory scheduler's round refreshes the
 * planner's statistics of the search tables once enough rows changed, so a scope that grew
 * from nothing is not planned as empty, and no search (and no small write) pays for an
 * ANALYZE. On PostgreSQL the round leaves it to autovacuum.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createMemory } from "@/server/domain/memory/memories";
import { memoryRound } from "@/server/domain/memory/scheduler";
import { searchMemories } from "@/server/domain/memory/search";
import { INSTANCE_LIMITS } from "@/server/limits";
import { withTestDatabase } from "../helpers/db";
import { makeScope } from "../helpers/memory";

const database = withTestDatabase();

async function memoryStatistics() {
  const db = await getDb();
  // The collector's counts reach the view at most once a second unless a flush is forced
  // (this connection's: the embedded database has only the one).
  await db.$executeRawUnsafe("SELECT pg_stat_force_next_flush()");
  const [row] = await db.$queryRawUnsafe<{ analyzed: Date | null; rows: number; changed: bigint }[]>(
    `SELECT s.last_analyze AS analyzed, c.reltuples::float8 AS rows, s.n_mod_since_analyze AS changed
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = current_schema() AND s.relname = 'memory'`,
  );
  if (!row) throw new Error("no statistics row for memory");
  return row;
}

describe("memory search statistics", () => {
  it("are refreshed by the scheduler's round after a scope grows, and not after a few writes", async () => {
    const scope = await makeScope("statistics");
    const db = await getDb();
    const bulk = INSTANCE_LIMITS.MEMORY_STATISTICS_CHANGED_ROWS.value + 300;
    await db.$executeRawUnsafe(
      `INSERT INTO memory (id, "scopeId", kind, body, title, "bodyBytes", "authorType", "authorLabel", "occurredAt", "episodeId")
       SELECT gen_random_uuid()::text, $1, 'note', 'deploy note ' || g, 'deploy note ' || g, 20, 'system', 'test', now(), 'e' || g
         FROM generate_series(1, $2::int) g`,
      scope.id,
      bulk,
    );
    const before = await memoryStatistics();
    const embedded = database.current().kind === "embedded";
    if (embedded) expect(Number(before.changed)).toBeGreaterThanOrEqual(bulk);

    // A search never analyzes: the statistics are as stale after it as before.
    await searchMemories(SYSTEM, { scopeId: scope.id, query: "deploy note" });
    expect((await memoryStatistics()).analyzed).toEqual(before.analyzed);

    await memoryRound();
    const after = await memoryStatistics();
    if (!embedded) {
      expect(after.analyzed).toBeNull(); // autovacuum's job there, not each instance's
      return;
    }
    expect(after.analyzed).not.toBeNull();
    expect(after.rows).toBeGreaterThanOrEqual(bulk);
    expect(Number(after.changed)).toBe(0);

    for (let i = 0; i < 5; i++) await createMemory(SYSTEM, { scopeId: scope.id, body: `one more deploy note ${i}` });
    await memoryRound();
    const later = await memoryStatistics();
    expect(later.analyzed).toEqual(after.analyzed);
    expect(Number(later.changed)).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
