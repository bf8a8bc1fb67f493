/**
 * Writes the call log without slowing calls: a finished call is put in memory and written
 * with others in one insert, at most CALL_LOG_FLUSH_MS later (at once when
 * CALL_LOG_FLUSH_ROWS wait). Names (identity, Tool, Source), sizes and captured payloads
 * are worked out at write time, for the whole batch in a few queries, so a call only pays
 * for pushing an object onto an array. Shutdown flushes what is left (scripts/start.ts).
 *
 * If the database cannot take the rows, they wait and are retried; past
 * CALL_LOG_BUFFER_ROWS the oldest are dropped and counted (qm_call_log_dropped_total),
 * so a database outage cannot exhaust memory.
 */
import { randomUUID } from "node:crypto";
import { getDb } from "../../db";
import { type BulkColumn, bulkInsert } from "../../db/bulk";
import type { Tx } from "../../db/types";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { metrics, registerGauge } from "../../observability/metrics";
import { storableCopy } from "../storable-text";
import { ERASED_PAYLOAD, memoryIdCandidates, UNRECORDED_PAYLOAD } from "./memory-refs";
import type { CallOutcome } from "./outcome";

export interface FinishedCall {
  /** Chosen before the call ran, so what it wrote can name its row (a memory's provenance). */
  id?: string;
  startedAt: Date;
  durationMs: number;
  identityId: string;
  tokenId: string | null;
  toolName: string;
  builtIn: boolean;
  /** A held Source's resource read or prompt get: its Source and its own URI or name (no Tool). */
  source?: { id: string; name: string; nativeName: string };
  outcome: CallOutcome;
  failureCode: string | null;
  /** Kept by reference until the batch is written: measured (and captured, when on) then. */
  arguments: unknown;
  result: unknown;
}

const KEY = Symbol.for("quartermaster.call-log");
type Buffer_ = { pending: FinishedCall[]; timer: NodeJS.Timeout | null; writing: Promise<void> | null };
type Holder = { [KEY]?: Buffer_ };
const holder = globalThis as Holder;
holder[KEY] ??= { pending: [], timer: null, writing: null };
const buffer = holder[KEY];

registerGauge("qm_call_log_pending_rows", "Call log rows waiting to be written.", () => buffer.pending.length);

/** Queues one finished call for the call log. */
export function recordCall(call: FinishedCall): void {
  buffer.pending.push(call);
  const over = buffer.pending.length - LIMITS.CALL_LOG_BUFFER_ROWS.value;
  if (over > 0) {
    buffer.pending.splice(0, over);
    metrics.callLogDropped.inc({}, over);
  }
  if (buffer.pending.length >= LIMITS.CALL_LOG_FLUSH_ROWS.value) void flushSoon(0);
  else if (!buffer.timer) void flushSoon(LIMITS.CALL_LOG_FLUSH_MS.value);
}

function flushSoon(ms: number): void {
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = setTimeout(() => {
    buffer.timer = null;
    flushCallLog().catch(() => {});
  }, ms);
  // A pending write never keeps a process alive; shutdown flushes explicitly.
  buffer.timer.unref();
}

/** Writes every queued call now; resolves when they are in the database (or failed to be). */
export async function flushCallLog(): Promise<void> {
  // One writer at a time keeps the rows in order and the batches whole.
  while (buffer.writing) await buffer.writing;
  if (!buffer.pending.length) return;
  buffer.writing = (async () => {
    while (buffer.pending.length) {
      const batch = buffer.pending.slice(0, LIMITS.CALL_LOG_FLUSH_ROWS.value);
      try {
        await writeBatch(batch);
        buffer.pending.splice(0, batch.length);
      } catch (error) {
        log.error({ err: error, rows: batch.length }, "call log rows could not be written; retrying");
        if (!buffer.timer) flushSoon(1000);
        return;
      }
    }
  })();
  try {
    await buffer.writing;
  } finally {
    buffer.writing = null;
  }
}

/** Rows queued and not yet written (tests, metrics). */
export function pendingCallLogRows(): number {
  return buffer.pending.length;
}

function jsonText(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

// Never between the two halves of a surrogate pair: half of one is text no database stores.
function clip(text: string): string {
  const max = LIMITS.CALL_PAYLOAD_CHARS.value;
  if (text.length <= max) return storableCopy(text);
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return `${storableCopy(text.slice(0, end))}…[cut at ${max} characters]`;
}

type Carried = { ids: string[]; erased: boolean } | null;

/**
 * The memories each captured call carried (null: too many candidates to record). The rows
 * are share-locked until the batch is in: an erasure waits for it and then clears the new
 * rows too, or ran first and the payload is not kept.
 */
async function memoriesCarried(tx: Tx, candidates: (Set<string> | null | undefined)[]): Promise<Carried[]> {
  const all = [...new Set(candidates.flatMap((c) => (c ? [...c] : [])))];
  const rows = all.length
    ? await tx.$queryRawUnsafe<{ id: string; erased: boolean }[]>(
        `SELECT id, "erasedAt" IS NOT NULL AS erased FROM memory WHERE id = ANY($1::text[]) FOR SHARE`,
        all,
      )
    : [];
  const known = new Map(rows.map((r) => [r.id, r.erased]));
  return candidates.map((c) => {
    if (c === null) return null;
    const ids = c ? [...c].filter((id) => known.has(id)) : [];
    return { ids, erased: ids.some((id) => known.get(id)) };
  });
}

function payloads(argsText: string, resultText: string, carried: Carried) {
  if (carried === null) return { arguments: UNRECORDED_PAYLOAD, result: UNRECORDED_PAYLOAD, memoryIds: [] };
  if (carried.erased) return { arguments: ERASED_PAYLOAD, result: ERASED_PAYLOAD, memoryIds: [] };
  return { arguments: clip(argsText), result: clip(resultText), memoryIds: carried.ids };
}

/**
 * One statement with one parameter per batch (db/bulk.ts): createMany bound every cell of
 * up to CALL_LOG_FLUSH_ROWS rows as its own parameter, and under load that statement's
 * planning was most of the database's share of a call's CPU.
 */
const CALL_LOG_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "startedAt", type: "timestamp(3)" },
  { name: "durationMs", type: "integer" },
  { name: "identityId", type: "text" },
  { name: "identityName", type: "text" },
  { name: "tokenId", type: "text" },
  { name: "toolName", type: "text" },
  { name: "builtIn", type: "boolean" },
  { name: "toolId", type: "text" },
  { name: "nativeName", type: "text" },
  { name: "sourceId", type: "text" },
  { name: "sourceName", type: "text" },
  { name: "outcome", type: "text", cast: "CallOutcome" },
  { name: "failureCode", type: "text" },
  { name: "bytesIn", type: "integer" },
  { name: "bytesOut", type: "integer" },
  { name: "arguments", type: "text" },
  { name: "result", type: "text" },
  { name: "payloadExpiresAt", type: "timestamp(3)" },
  { name: "memoryIds", type: "text[]" },
];

async function writeBatch(batch: FinishedCall[]): Promise<void> {
  const db = await getDb();
  const identityIds = [...new Set(batch.map((c) => c.identityId))];
  // A name the agent sent may hold text no database stores: it names no Tool, and asking would fail the batch.
  const catalogNames = [
    ...new Set(
      batch.filter((c) => !c.builtIn && !c.source && storableCopy(c.toolName) === c.toolName).map((c) => c.toolName),
    ),
  ];
  const [identities, tools, captures] = await Promise.all([
    db.agentIdentity.findMany({ where: { id: { in: identityIds } }, select: { id: true, name: true } }),
    catalogNames.length
      ? db.tool.findMany({
          where: { modelFacingName: { in: catalogNames } },
          select: {
            id: true,
            modelFacingName: true,
            nativeName: true,
            source: { select: { id: true, name: true } },
          },
        })
      : [],
    db.callCapture.findMany({ where: { identityId: { in: identityIds } } }),
  ]);
  const identityName = new Map(identities.map((i) => [i.id, i.name]));
  const tool = new Map(tools.map((t) => [t.modelFacingName, t]));
  const capture = new Map(captures.map((c) => [c.identityId, c.retentionDays]));
  const candidates = batch.map((c) =>
    capture.has(c.identityId) ? memoryIdCandidates([c.arguments, c.result]) : undefined,
  );

  if (candidates.every((c) => c === undefined))
    await bulkInsert(
      db,
      "call_log",
      CALL_LOG_COLUMNS,
      batch.map((c) => row(c, null)),
    );
  else
    await db.$transaction(async (tx) => {
      const carried = await memoriesCarried(tx, candidates);
      await bulkInsert(
        tx,
        "call_log",
        CALL_LOG_COLUMNS,
        batch.map((c, i) => row(c, carried[i] ?? null)),
      );
    });

  function row(c: FinishedCall, carried: Carried) {
    const argsText = jsonText(c.arguments);
    const resultText = jsonText(c.result);
    const t = c.builtIn || c.source ? undefined : tool.get(c.toolName);
    const keepDays = capture.get(c.identityId);
    return {
      id: c.id ?? randomUUID(),
      startedAt: c.startedAt,
      durationMs: c.durationMs,
      identityId: c.identityId,
      identityName: identityName.get(c.identityId) ?? c.identityId,
      tokenId: c.tokenId,
      // The name as the agent sent it, which may hold text no database stores.
      toolName: storableCopy(c.toolName),
      builtIn: c.builtIn,
      toolId: t?.id ?? null,
      nativeName: c.builtIn
        ? storableCopy(c.toolName)
        : c.source
          ? storableCopy(c.source.nativeName)
          : (t?.nativeName ?? null),
      sourceId: c.source?.id ?? t?.source.id ?? null,
      sourceName: c.source?.name ?? t?.source.name ?? null,
      outcome: c.outcome,
      failureCode: c.failureCode,
      bytesIn: Buffer.byteLength(argsText),
      bytesOut: Buffer.byteLength(resultText),
      ...(keepDays
        ? {
            ...payloads(argsText, resultText, carried),
            payloadExpiresAt: new Date(c.startedAt.getTime() + keepDays * 86_400_000),
          }
        : { memoryIds: [] }),
    };
  }
}
