/**
 * Memory search's optional vector leg, with the deterministic offline provider: off by
 * default (nothing to install, no table), and when on, memories written are embedded after
 * the fact and found by similarity, with the vector's share reported per hit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { closeDatabase, getDb, installDatabase } from "@/server/db";
import { type OpenedDatabase, openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { embedPending, localHashProvider, useEmbeddingsProvider } from "@/server/domain/memory/embeddings";
import { eraseMemory } from "@/server/domain/memory/erase";
import { searchMemories } from "@/server/domain/memory/search";
import { makeScope, remember } from "../helpers/memory";
import { usePostgres } from "../helpers/template";

// pgvector ships with PGlite; a PostgreSQL server needs the extension installed, which this
// machine's Debian server lacks, so the leg is exercised on the embedded database.
describe.skipIf(usePostgres)("the vector leg", () => {
  let opened: OpenedDatabase;
  beforeAll(async () => {
    opened = await openDatabase({ dataDir: "memory://", vector: true });
    await applyMigrations(opened.adapterFactory);
    installDatabase(opened);
  });
  afterAll(async () => {
    useEmbeddingsProvider(undefined);
    await closeDatabase();
  });

  it("is off by default, and when on finds memories by similarity and forgets an erased one", async () => {
    const scope = await makeScope();
    const note = await remember(scope.id, "Kubernetes cluster autoscaling settings for the batch pool");
    await remember(scope.id, "Lunch menu for the offsite");

    const db = await getDb();
    const [off] = await db.$queryRawUnsafe<{ exists: boolean }[]>(
      `SELECT to_regclass('memory_embedding') IS NOT NULL AS exists`,
    );
    expect(off?.exists).toBe(false);
    expect(await embedPending()).toBe(0);
    const lexical = await searchMemories(SYSTEM, { scopeId: scope.id, query: "autoscaler" });
    expect(lexical.hits.every((h) => h.signals.vector === 0)).toBe(true);

    useEmbeddingsProvider(localHashProvider(256));
    expect(await embedPending()).toBe(2);
    expect(await embedPending()).toBe(0);
    // "autoscaler" is not a word of the note; its character trigrams are close to "autoscaling".
    const found = await searchMemories(SYSTEM, { scopeId: scope.id, query: "autoscaler" });
    expect(found.hits[0]?.id).toBe(note.id);
    expect(found.hits[0]?.signals.vector).toBeGreaterThan(0);

    await eraseMemory(SYSTEM, { id: note.id, reason: "test" });
    const [left] = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM memory_embedding WHERE "memoryId" = $1`,
      note.id,
    );
    expect(Number(left?.n)).toBe(0);
  });
});
