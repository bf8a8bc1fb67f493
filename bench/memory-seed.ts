/**
 * Loads a generated corpus into one scope in bulk: one INSERT … SELECT per 5,000 memories,
 * the search entries written by the same function every write path uses (index-entries.ts),
 * then fresh planner statistics, as after an import. 100,000 memories in seconds, where the
 * scope import (which checks and audits every line) takes minutes.
 */
import { randomUUID } from "node:crypto";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { indexMemories } from "@/server/domain/memory/index-entries";
import { createScope } from "@/server/domain/memory/scopes";
import { contentHash, titleOf } from "@/server/domain/memory/text";

const BATCH = 5_000;

/** A new scope holding `bodies`, twenty to an episode, a minute apart; returns its id. */
export async function seedScope(name: string, bodies: string[]): Promise<string> {
  const db = await getDb();
  const scope = await createScope(SYSTEM, { name, consolidateEverySeconds: 30 * 86_400 });
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < bodies.length; i += BATCH) {
    const batch = bodies.slice(i, i + BATCH).map((body, j) => ({
      id: randomUUID(),
      body,
      title: titleOf(body),
      bodyBytes: Buffer.byteLength(body),
      contentHash: contentHash(body),
      occurredAt: new Date(start + (i + j) * 60_000).toISOString(),
      episodeId: `episode-${Math.floor((i + j) / 20)}`,
    }));
    await db.$executeRawUnsafe(
      `INSERT INTO memory (id, "scopeId", kind, body, title, "bodyBytes", "contentHash", "authorType", "authorLabel",
                           "occurredAt", "recordedAt", "episodeId")
       SELECT x.id, $2, 'note', x.body, x.title, x."bodyBytes", x."contentHash", 'system', 'bench',
              x."occurredAt", x."occurredAt", x."episodeId"
         FROM json_to_recordset($1::json)
           AS x(id text, body text, title text, "bodyBytes" int, "contentHash" text, "occurredAt" timestamp(3), "episodeId" text)`,
      JSON.stringify(batch),
      scope.id,
    );
    await indexMemories(
      db,
      batch.map((m) => ({ id: m.id, body: m.body, tags: [] })),
    );
  }
  await db.$executeRawUnsafe("ANALYZE memory, memory_lexeme");
  return scope.id;
}
