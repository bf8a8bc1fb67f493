/**
 * Memories written before write-time screening existed are screened once, by the memory
 * scheduler, a batch a round (docs/decisions/0091). The migration that added this recorded
 * the last memory then written (throughSeq); every later one was screened as it was written.
 * A batch is claimed by advancing the cursor with a conditional update, so instances sharing
 * a database never screen one memory twice, and a crash loses at most the batch in hand
 * (the cursor moves in the transaction that flags). Only a memory never flagged and never
 * cleared is flagged: a curator's decision is not undone by a second look.
 */
import { SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { recordAudit } from "../audit/record";
import { memoryLinkHosts } from "./memories";
import { flagReason, screenMemoryBody } from "./screening";

export interface BackfillRound {
  screened: number;
  flagged: number;
  /** Nothing is left to screen (now or before this round). */
  done: boolean;
}

export async function backfillScreening(batch = LIMITS.MEMORY_SCREENING_BACKFILL_BATCH.value): Promise<BackfillRound> {
  const db = await getDb();
  const state = await db.memoryScreeningBackfill.findUnique({ where: { id: 1 } });
  if (!state || state.finishedAt) return { screened: 0, flagged: 0, done: true };
  const rows = await db.memory.findMany({
    where: { seq: { gt: state.cursorSeq, lte: state.throughSeq } },
    orderBy: { seq: "asc" },
    take: batch,
    select: { id: true, seq: true, body: true, title: true, flagged: true, flagClearedAt: true, scopeId: true },
  });
  const cursor = rows.at(-1)?.seq ?? state.throughSeq;
  const allowedHosts = memoryLinkHosts();
  const hits = rows.flatMap((m) => {
    // Erased (no body), already flagged, or cleared by a curator: nothing to decide.
    if (m.body === null || m.flagged || m.flagClearedAt) return [];
    const reasons = screenMemoryBody(m.body, { allowedHosts }).map(flagReason);
    return reasons.length ? [{ ...m, reasons }] : [];
  });
  const finished = cursor >= state.throughSeq;
  const flagged = await db.$transaction(async (tx) => {
    const { count } = await tx.memoryScreeningBackfill.updateMany({
      where: { id: 1, cursorSeq: state.cursorSeq, finishedAt: null },
      data: {
        cursorSeq: cursor,
        screened: { increment: rows.length },
        ...(finished ? { finishedAt: new Date() } : {}),
      },
    });
    // Another instance took this batch first.
    if (!count) return null;
    let n = 0;
    for (const hit of hits) {
      const updated = await tx.memory.updateMany({
        where: { id: hit.id, flagged: false, flagClearedAt: null },
        data: { flagged: true, flagReasons: hit.reasons },
      });
      if (!updated.count) continue;
      n += 1;
      const scope = await tx.scope.findUnique({ where: { id: hit.scopeId }, select: { name: true } });
      await recordAudit(tx, SYSTEM, {
        action: "memory.flag",
        targetType: "memory",
        targetId: hit.id,
        targetLabel: hit.title || scope?.name || hit.id,
        details: { scope: scope?.name ?? null, reasons: hit.reasons, by: "screening backfill" },
      });
    }
    if (n) await tx.memoryScreeningBackfill.update({ where: { id: 1 }, data: { flagged: { increment: n } } });
    return n;
  });
  if (flagged === null) return { screened: 0, flagged: 0, done: false };
  if (rows.length || finished)
    log.info(
      { screened: rows.length, flagged, through: state.throughSeq, cursor, finished },
      "screened memories written before screening existed",
    );
  return { screened: rows.length, flagged, done: finished };
}
