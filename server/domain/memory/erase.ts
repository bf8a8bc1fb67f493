/**
 * Erasure: the one exception to immutable memories, for a legal request. The body goes
 * everywhere — the row, its full-text and trigram index entries, its duplicate key and
 * band keys, its facts, its vector — and the row stays as a tombstone saying when, by whom
 * and why. A memory a merge built from it holds its text too, so it is erased the same way,
 * and the other memories that merge had replaced become current again.
 */
import { type Actor, actorLabel } from "../../actor";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { recordAudit } from "../audit/record";
import { ERASED_PAYLOAD } from "../calls/memory-refs";
import { operation } from "../operation";
import { requireMemoryScope } from "./access";
import { forgetEmbeddings } from "./embeddings";
import { refreshSeries } from "./facts";
import { ZEraseInput } from "./schemas";

/** The memory and every merge result built from it, transitively. */
async function derivedFrom(tx: Tx, id: string): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `WITH RECURSIVE d AS (
       SELECT id FROM memory WHERE id = $1
       UNION
       SELECT m.id FROM memory m JOIN d ON d.id = ANY(m."mergedFrom")
     ) SELECT id FROM d`,
    id,
  );
  return rows.map((r) => r.id);
}

/**
 * Takes the bodies of `ids` (all of `scopeId`) out of everything that holds them, leaving
 * tombstones; `reasonOf` says why for each. Shared by erasure and retention (retention.ts).
 */
export async function eraseBodies(
  tx: Tx,
  actor: Actor,
  scopeId: string,
  ids: string[],
  reasonOf: (id: string) => string,
  now = new Date(),
): Promise<void> {
  const series = await tx.fact.findMany({
    where: { memoryId: { in: ids } },
    select: { subjectKey: true, predicateKey: true },
  });
  await tx.fact.deleteMany({ where: { memoryId: { in: ids } } });
  await refreshSeries(
    tx,
    scopeId,
    series.map((s) => [s.subjectKey, s.predicateKey]),
  );
  // Their words no longer count toward the scope's lexeme frequencies.
  await tx.$executeRawUnsafe(
    `UPDATE memory_lexeme ml SET df = ml.df - x.n
       FROM (SELECT m."scopeId", l.lexeme, count(*)::int AS n
               FROM memory m, unnest(tsvector_to_array(m."searchVector")) AS l(lexeme)
              WHERE m.id = ANY($1::text[]) AND m."searchVector" IS NOT NULL
              GROUP BY 1, 2) x
      WHERE ml."scopeId" = x."scopeId" AND ml.lexeme = x.lexeme`,
    ids,
  );
  await tx.$executeRawUnsafe(`DELETE FROM memory_lexeme WHERE "scopeId" = $1 AND df <= 0`, scopeId);
  await tx.$executeRawUnsafe(
    `UPDATE memory SET body = NULL, title = '', "contentHash" = NULL, "searchVector" = NULL, "lshBands" = '{}',
            tags = '{}', "erasedAt" = $2, "erasedBy" = $3, "erasureReason" = x.reason
       FROM unnest($1::text[], $4::text[]) AS x(id, reason)
      WHERE memory.id = x.id`,
    ids,
    now,
    actorLabel(actor),
    ids.map(reasonOf),
  );
  await forgetEmbeddings(tx, ids);
  // Captured call payloads that carried them (remember's arguments, search hits, bodies
  // read): after the memory rows, so a call log batch holding them share-locked is in.
  await tx.$executeRawUnsafe(
    `UPDATE call_log SET arguments = $2, result = $2, "memoryIds" = '{}'
      WHERE "payloadExpiresAt" IS NOT NULL AND "memoryIds" && $1::text[]`,
    ids,
    ERASED_PAYLOAD,
  );
  // A proposal's evidence may quote the erased memory's facts; its decision stays on record.
  await tx.$executeRawUnsafe(
    `UPDATE proposal SET evidence = jsonb_build_object('reason', 'erased'),
            rationale = 'A memory this proposal concerned was erased; its details went with it.'
      WHERE "memoryIds" && $1::text[]`,
    ids,
  );
}

export const eraseMemory = operation({ role: "admin", input: ZEraseInput }, async (actor, input) => {
  const scope = await requireMemoryScope(actor, input.id, "write");
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const ids = await derivedFrom(tx, input.id);
    const now = new Date();
    await eraseBodies(
      tx,
      actor,
      scope.id,
      ids,
      (id) => (id === input.id ? input.reason : `Built by a merge from erased memory ${input.id}: ${input.reason}`),
      now,
    );
    // The memories an erased merge had replaced are the current ones again.
    const restored = await tx.memory.updateMany({
      where: { supersededById: { in: ids }, id: { notIn: ids } },
      data: { supersededById: null, supersededAt: null },
    });
    await recordAudit(tx, actor, {
      action: "memory.erase",
      targetType: "memory",
      targetId: input.id,
      targetLabel: scope.name,
      details: { reason: input.reason, erased: ids, restored: restored.count },
    });
    return { id: input.id, erased: ids, restored: restored.count, erasedAt: now };
  });
  // Dead row versions still hold the old text until vacuumed; erasure should not wait for autovacuum.
  await db.$executeRawUnsafe(`VACUUM memory, fact`).catch(() => {});
  return result;
});
