/**
 * Calls to SDK Tool Host Tools. Quartermaster cannot reach a host (it may run behind a
 * firewall), so a call waits in tool_call until the host collects it and comes back with
 * the host's result. Any instance may take the call, the collection or the result: each
 * write wakes whoever waits for it at once — on this instance in-process, on the others
 * through LISTEN/NOTIFY (wakeup-listener.ts) — and waiters read the database again every
 * TOOL_HOST_WAKE_POLL_MS in case a wake-up was lost. A row lives only until its caller
 * reads the result or gives up. A call costs two statements on the agent's side (queue;
 * take the answer), one when its result is handed over on this instance, and, on the
 * host's, its share of one claim and one result update (docs/decisions/0085, 0093).
 */

import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { HOST_RESULT_CODES } from "@/sdk/src/contract/argument-problems";
import { type SubmittedResult, shapeToolResult } from "@/sdk/src/contract/result-checks";
import { fmt } from "@/universal/format";
import { getDb } from "../../db";
import type { OpenedDatabase } from "../../db/open";
import { DomainError, isToolCallFailure, type ToolCallFailure, type ToolCallFailureCode } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { isDraining } from "../../instance";
import { LIMITS } from "../../limits";
import { heartbeat, type ToolHost } from "../sources/tool-hosts";
import { parseInput } from "../validation";
import { followHostProgress, type ProgressFollower, type ProgressUpdate } from "./host-progress";
import { announceCancel } from "./request-cancellation";
import { acceptToolResult, type ToolResult } from "./result";
import { listenForWakeups, WAKEUP_CHANNEL, wakePayload } from "./wakeup-listener";
import { wake, watch, watched } from "./wakeups";

const pollMs = () => LIMITS.TOOL_HOST_WAKE_POLL_MS.value;

/**
 * Results handed straight to a caller waiting on this instance: the submission removes the
 * row (claiming it, as the agent's read would) and leaves the answer here, so the caller
 * needs no statement of its own to take it. On globalThis: the result is posted to the Tool
 * Host API's module graph and read in /mcp's (decision 0004).
 */
const HANDED = Symbol.for("quartermaster.handedResults");
const handedHolder = globalThis as unknown as { [HANDED]?: Map<string, Answer> };
handedHolder[HANDED] ??= new Map<string, Answer>();
const handed: Map<string, Answer> = handedHolder[HANDED];
type Answer = { status: "succeeded"; result: ToolResult } | { status: "failed"; result: StoredFailure };

/** An answer as its caller takes it: the result, or the failure it throws. */
function answerOf(answer: Answer): ToolResult {
  if (answer.status === "succeeded") return answer.result;
  // A host answer that broke the contract fails this call with the code it broke.
  throw new DomainError(answer.result.code, answer.result.message, answer.result.details);
}

/**
 * A select-list item that, on PostgreSQL, tells the other instances `prefix` + `key` (an SQL
 * expression: one notification per row the statement returns). Inside the statement that
 * writes the row, so PostgreSQL sends it at that commit and never before the row is there.
 */
function notifying(kind: OpenedDatabase["kind"], prefix: string, key: Prisma.Sql = Prisma.sql`''`): Prisma.Sql {
  return kind === "postgresql"
    ? Prisma.sql`pg_notify(${WAKEUP_CHANNEL}, ${wakePayload(prefix)}::text || ${key})::text`
    : Prisma.sql`NULL::text`;
}

/**
 * How long a waiter whose row vanished waits for the answer a submission on this instance
 * removed it for (left just after the removal) before it takes the Source as deleted.
 */
const HANDOVER_GRACE_MS = 100;

/** Queues a call for the host and waits for its result, at most the Tool Call time limit. */
export async function callHostTool(options: {
  sourceId: string;
  nativeName: string;
  arguments: Record<string, unknown>;
  signal?: AbortSignal;
  /** The call's deadline from now: the Tool's declared timeoutSeconds, or the default. */
  limitMs?: number;
  /** Who asked (requestKey()): the agent's notifications/cancelled finds the call by it. */
  requestKey?: string;
  /** The agent asked for progress (a progressToken): the host's reports go here (host-progress.ts). */
  onProgress?: (update: ProgressUpdate) => Promise<void> | void;
}): Promise<ToolResult> {
  // The deadline counts from the call, not from whenever this instance's listener is ready.
  const limitMs = options.limitMs ?? LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS.value * 1000;
  const deadline = new Date(Date.now() + limitMs);
  const kind = await listenForWakeups();
  const db = await getDb();
  const id = randomUUID();
  // Watched before the row exists: a result (or the host's withdrawal) that comes while
  // this waiter is busy still ends its next pause at once.
  const answered = watch(`call:${id}`, `host:${options.sourceId}`);
  let cancelled = false;
  let taken = false;
  let progress: ProgressFollower | null = null;
  try {
    // One statement queues the call and wakes a host collecting from another instance; a
    // host already withdrawn gets no row, and the call fails at once.
    const queued = await db.$queryRaw<{ id: string }[]>`
      WITH queued AS (
        INSERT INTO tool_call (id, "sourceId", "nativeName", arguments, deadline, "requestKey")
        SELECT ${id}, id, ${options.nativeName}, ${JSON.stringify(options.arguments)}, ${deadline}, ${options.requestKey ?? null}
        FROM source WHERE id = ${options.sourceId} AND "hostSilentSince" IS NULL
        RETURNING id),
      -- Listened to from the start, so the host's first report is kept whenever it collects.
      listening AS (
        INSERT INTO tool_call_progress ("callId") SELECT id FROM queued WHERE ${Boolean(options.onProgress)}
        RETURNING "callId")
      SELECT id, ${notifying(kind, `source:${options.sourceId}`)} AS woke FROM queued`;
    if (queued.length) {
      if (options.onProgress) progress = followHostProgress(id, options.onProgress);
      wake(`source:${options.sourceId}`);
    } else {
      const source = await db.source.findUnique({
        where: { id: options.sourceId },
        select: { name: true, hostSilentSince: true },
      });
      if (source?.hostSilentSince) throw hostOffline(source);
    }
    while (queued.length && Date.now() < deadline.getTime() && !options.signal?.aborted) {
      await answered.pause(Math.min(pollMs(), deadline.getTime() - Date.now()), options.signal);
      const mine = handed.get(id);
      if (mine) {
        taken = true;
        return answerOf(mine);
      }
      // An answered call is read and removed in one statement: its row has done its work.
      const [done] = await db.$queryRaw<{ status: string; result: string | null }[]>`
        DELETE FROM tool_call WHERE id = ${id} AND status IN ('succeeded', 'failed')
        RETURNING status::text, result`;
      if (done) {
        taken = true;
        return answerOf(
          done.status === "succeeded" && done.result
            ? { status: "succeeded", result: JSON.parse(done.result) as ToolResult }
            : { status: "failed", result: JSON.parse(done.result ?? "{}") as StoredFailure },
        );
      }
      const row = await db.toolCall.findUnique({
        where: { id },
        select: { status: true, source: { select: { name: true, hostSilentSince: true } } },
      });
      if (!row) {
        // Removed by a submission handing its result over here, which leaves the answer just
        // after (and wakes this watch), or by the Source's deletion.
        await answered.pause(Math.min(HANDOVER_GRACE_MS, Math.max(0, deadline.getTime() - Date.now())));
        const late = handed.get(id);
        if (!late) break;
        taken = true;
        return answerOf(late);
      }
      if (row.status === "cancelled") {
        cancelled = true;
        break;
      }
      // Read here rather than written to each queued row: whichever instance withdrew the
      // host (a goodbye, the silence sweep), every waiter learns it on its next read, and a
      // call queued just after the withdrawal fails too instead of waiting out its deadline.
      if (row.status === "pending" && row.source.hostSilentSince) throw hostOffline(row.source);
    }
    // The agent hung up (this request's signal): the host holding the call must hear of it too.
    if (queued.length && options.signal?.aborted && !cancelled) cancelled = (await cancelCalls({ id })) > 0;
  } finally {
    await progress?.stop();
    // Closed before the hand-over is cleared: a submission that hands a result over after
    // this sees nobody watching and takes it back itself.
    answered.close();
    handed.delete(id);
    // A cancelled call the host took stays (without its arguments) until the host's
    // cancellation watch has seen it; the sweep removes it after the deadline.
    if (!taken) await db.toolCall.deleteMany({ where: { id, status: { not: "cancelled" } } });
  }
  if (cancelled)
    throw new DomainError(
      "TOOL_CALL_CANCELLED",
      "The agent cancelled this call (or hung up) before the SDK Tool Host answered; the host was told to stop.",
    );
  throw new DomainError(
    "TOOL_CALL_TIMEOUT",
    `The SDK Tool Host did not answer within ${fmt(limitMs / 1000)} s, this Tool's deadline; the call may still have run on the host. Try again later, or with less to do.`,
    { limit: limitMs, unit: "ms" },
  );
}

function hostOffline(source: { name: string; hostSilentSince: Date | null }): DomainError {
  return new DomainError(
    "TOOL_HOST_OFFLINE",
    `The SDK Tool Host "${source.name}" went offline (it shut down, or stopped sending heartbeats) before it took this call; the call did not run. Use another Tool, or try again once the host is back.`,
    { source: source.name, since: source.hostSilentSince?.toISOString() },
  );
}

/** Marks calls cancelled (those still queued or held by a host) and wakes whoever waits on them. */
async function cancelCalls(where: { id: string } | { requestKey: string }): Promise<number> {
  const kind = await listenForWakeups();
  const db = await getDb();
  const match = "id" in where ? Prisma.sql`id = ${where.id}` : Prisma.sql`"requestKey" = ${where.requestKey}`;
  const rows = await db.$queryRaw<{ id: string; sourceId: string }[]>`
    WITH cancelled AS (
      UPDATE tool_call SET status = 'cancelled', arguments = '{}'
      WHERE ${match} AND status IN ('pending', 'delivered') RETURNING id, "sourceId")
    SELECT id, "sourceId", ${notifying(kind, "call:", Prisma.sql`id`)} AS woke,
      ${notifying(kind, "cancelled:", Prisma.sql`"sourceId"`)} AS "wokeHost"
    FROM cancelled`;
  for (const row of rows) {
    wake(`call:${row.id}`);
    wake(`cancelled:${row.sourceId}`);
  }
  return rows.length;
}

/**
 * One key for "this agent's request": the Agent Identity, the token it signed in with and
 * the JSON-RPC id, hashed so an id of any length fits. A cancellation names only the
 * request id, so only the same identity and token can reach the call.
 */
export function requestKey(actor: { identityId: string; tokenId: string }, requestId: string | number): string {
  return createHash("sha256")
    .update(JSON.stringify([actor.identityId, actor.tokenId, requestId]))
    .digest("hex");
}

/**
 * The agent's notifications/cancelled for one of its requests: ends its SDK Tool Host call
 * (through its row), or its MCP Connection call (announced to the instance running it).
 */
export async function cancelRequest(key: string): Promise<number> {
  const [ended] = await Promise.all([cancelCalls({ requestKey: key }), announceCancel(key)]);
  return ended;
}

/**
 * Waits up to `waitMs` until one of the host's calls `ids` is cancelled and answers with
 * those that are. Ids the host does not hold, or that are not cancelled, are never named.
 */
export async function watchCancellations(
  host: ToolHost,
  body: unknown,
  waitMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const { ids } = parseInput(ZWatch, body, { anyText: true });
  await listenForWakeups();
  const db = await getDb();
  const cancellations = watch(`cancelled:${host.id}`);
  const until = Date.now() + waitMs;
  try {
    for (;;) {
      const rows = await db.toolCall.findMany({
        where: { id: { in: ids }, sourceId: host.id, status: "cancelled" },
        select: { id: true },
      });
      if (rows.length) return rows.map((r) => r.id);
      const left = until - Date.now();
      if (left <= 0 || signal?.aborted || isDraining()) return [];
      await cancellations.pause(Math.min(pollMs(), left), signal);
    }
  } finally {
    cancellations.close();
  }
}

const ZWatch = z.object({
  ids: z.array(z.string().min(1).max(64)).min(1).max(LIMITS.TOOL_HOST_WATCHED_CALLS.value),
});

export interface CollectedCall {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  deadline: string;
}

/**
 * Hands the host the calls waiting for it, waiting up to `waitMs` for one to arrive.
 * Collecting counts as a heartbeat: a host that asks for work is alive.
 */
export async function collectHostCalls(
  host: ToolHost,
  waitMs: number,
  signal?: AbortSignal,
  max = LIMITS.TOOL_HOST_COLLECT_CALLS.value,
): Promise<CollectedCall[]> {
  const batch = Math.max(1, Math.min(max, LIMITS.TOOL_HOST_COLLECT_CALLS.value));
  const kind = await listenForWakeups();
  const arrivals = watch(`source:${host.id}`);
  try {
    return await claimCalls(kind, host, waitMs, batch, arrivals, signal);
  } finally {
    arrivals.close();
  }
}

async function claimCalls(
  kind: OpenedDatabase["kind"],
  host: ToolHost,
  waitMs: number,
  batch: number,
  arrivals: ReturnType<typeof watch>,
  signal?: AbortSignal,
): Promise<CollectedCall[]> {
  await collectionHeartbeat(host);
  const db = await getDb();
  const until = Date.now() + waitMs;
  for (;;) {
    const now = new Date();
    // SKIP LOCKED: two collections (two host processes) never get the same call.
    const claimed = await db.$queryRaw<{ id: string; nativeName: string; arguments: string; deadline: Date }[]>`
      UPDATE tool_call SET status = 'delivered', "deliveredAt" = ${now}
      WHERE id IN (
        SELECT id FROM tool_call
        WHERE "sourceId" = ${host.id} AND status = 'pending' AND deadline > ${now}
        ORDER BY "createdAt" LIMIT ${batch}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, "nativeName", arguments, deadline`;
    if (claimed.length && signal?.aborted) {
      // The host hung up (it is closing, or its connection broke) while these were claimed:
      // nobody would read the answer, so they go back to wait for the next collection.
      await db.$queryRaw`
        WITH returned AS (
          UPDATE tool_call SET status = 'pending', "deliveredAt" = NULL
          WHERE id = ANY(${claimed.map((c) => c.id)}::text[]) AND status = 'delivered' RETURNING id)
        SELECT count(*)::int AS n, ${notifying(kind, `source:${host.id}`)} AS woke FROM returned`;
      wake(`source:${host.id}`);
      return [];
    }
    if (claimed.length)
      return claimed.map((c) => ({
        id: c.id,
        tool: c.nativeName,
        arguments: JSON.parse(c.arguments) as Record<string, unknown>,
        deadline: new Date(c.deadline).toISOString(),
      }));
    const left = until - Date.now();
    // A draining instance sends the host away empty-handed: it collects again, through the
    // balancer, from an instance that stays (and this one's shutdown need not wait it out).
    if (left <= 0 || signal?.aborted || isDraining()) return [];
    await arrivals.pause(Math.min(pollMs(), left), signal);
  }
}

// On globalThis: the SDK Tool Host API is served from Next.js's route bundle (decision 0004).
const BEATS = Symbol.for("quartermaster.collectionHeartbeats");
const beatHolder = globalThis as unknown as { [BEATS]?: Map<string, number> };
beatHolder[BEATS] ??= new Map<string, number>();
const beats: Map<string, number> = beatHolder[BEATS];

/**
 * A collection counts as a heartbeat, written at most every TOOL_HOST_COLLECT_HEARTBEAT_MS
 * per host process here (a busy host collects many times a second; its heartbeat timeout is
 * at least 15 s). A host that was withdrawn is restored by its first collection, at once.
 */
async function collectionHeartbeat(host: ToolHost): Promise<void> {
  const key = `${host.id}\0${host.processId ?? ""}`;
  const now = Date.now();
  const last = beats.get(key);
  if (!host.hostSilentSince && last !== undefined && now - last < LIMITS.TOOL_HOST_COLLECT_HEARTBEAT_MS.value) return;
  if (beats.size >= 10_000) beats.clear();
  beats.set(key, now);
  try {
    await heartbeat(host);
  } catch (error) {
    beats.delete(key);
    throw error;
  }
}

const ZSubmission = z.object({
  results: z
    .array(
      z.union([
        z.object({ id: z.string().min(1), output: z.string() }).strict(),
        z.object({ id: z.string().min(1), error: z.string(), code: z.enum(HOST_RESULT_CODES).optional() }).strict(),
        // Blocks are checked one by one (shapeToolResult), so one malformed block fails only its call.
        z
          .object({
            id: z.string().min(1),
            content: z.array(z.unknown()),
            structuredContent: z.unknown().optional(),
          })
          .strict(),
      ]),
    )
    .min(1),
});

/** A failed row's result column: the failure itself, which the waiting caller throws. */
interface StoredFailure {
  code: ToolCallFailureCode;
  message: string;
  details: Record<string, unknown>;
}

export interface SubmissionOutcome {
  /** Results delivered to their callers as the host sent them. */
  delivered: string[];
  /** Results that reached their callers as a failure of the call, and why. */
  refused: { id: string; code: string; message: string }[];
  /** Ids of calls that are not (or no longer) waiting for this host: expired, answered, unknown. */
  unknown: string[];
}

/** A host's output as the Tool Result its caller gets (the contract's shape), or a failure of that one call. */
function resultOf(submitted: SubmittedResult): ToolResult {
  const shaped = shapeToolResult(submitted);
  if (!shaped.ok) throw new DomainError(shaped.failure.code, shaped.failure.message, shaped.failure.details);
  return acceptToolResult({ ...shaped.value });
}

/** Takes a host's results; each reaches its caller, as the result or as a failure of that call. */
export async function submitHostResults(host: ToolHost, body: unknown): Promise<SubmissionOutcome> {
  const { results } = parseInput(ZSubmission, body, { anyText: true });
  const kind = await listenForWakeups();
  const db = await getDb();
  const outcome: SubmissionOutcome = { delivered: [], refused: [], unknown: [] };
  for (const submitted of results) {
    let stored: ToolResult | StoredFailure;
    let refusal: ToolCallFailure | null = null;
    try {
      // Content blocks arrive unchecked by the schema above; shapeToolResult checks each.
      stored = resultOf(submitted as SubmittedResult);
    } catch (error) {
      if (!isToolCallFailure(error)) throw error;
      refusal = error;
      stored = { code: error.code, message: error.message, details: error.details ?? {} };
    }
    const status = refusal ? "failed" : "succeeded";
    // A caller waiting on this instance takes the answer from here: the row, still this
    // host's and not cancelled, is removed now (the caller's own read and removal saved).
    const here = watched(`call:${submitted.id}`);
    // Otherwise the result, and the wake-up of its caller's waiter on whichever instance it is.
    const updated = here
      ? await db.$queryRaw<{ id: string }[]>`
          DELETE FROM tool_call
          WHERE id = ${submitted.id} AND "sourceId" = ${host.id} AND status = 'delivered' RETURNING id`
      : await db.$queryRaw<{ id: string }[]>`
          WITH answered AS (
            UPDATE tool_call SET status = ${status}::"ToolCallStatus", result = ${JSON.stringify(stored)}
            WHERE id = ${submitted.id} AND "sourceId" = ${host.id} AND status = 'delivered' RETURNING id)
          SELECT id, ${notifying(kind, `call:${submitted.id}`)} AS woke FROM answered`;
    if (here && updated.length) {
      handed.set(
        submitted.id,
        refusal
          ? { status: "failed", result: stored as StoredFailure }
          : { status: "succeeded", result: stored as ToolResult },
      );
      // Its caller gave up meanwhile (its deadline): nobody will take the answer.
      if (!watched(`call:${submitted.id}`)) handed.delete(submitted.id);
    }
    if (!updated.length) outcome.unknown.push(submitted.id);
    // A failure the host named itself reached its caller as the host meant it: not a refusal.
    else if (refusal && !("code" in submitted && submitted.code))
      outcome.refused.push({ id: submitted.id, code: refusal.code, message: refusal.message });
    else outcome.delivered.push(submitted.id);
    wake(`call:${submitted.id}`);
  }
  return outcome;
}

/** Calls whose caller is long gone (a crashed instance): removed by the scheduler's sweep. */
export async function sweepAbandonedCalls(now = new Date()): Promise<number> {
  const db = await getDb();
  const { count } = await db.toolCall.deleteMany({
    where: { deadline: { lt: new Date(now.getTime() - LIMITS.TOOL_CALL_MS.value) } },
  });
  return count;
}
