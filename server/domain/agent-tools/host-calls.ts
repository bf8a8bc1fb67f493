/**
 * Calls to SDK Tool Host Tools. Quartermaster cannot reach a host (it may run behind a
 * firewall), so a call waits in tool_call until the host collects it and comes back with
 * the host's result. Waiting is by polling the database, so any instance may take the call,
 * the collection or the result; a signal within the process wakes a waiter on the same
 * instance at once. A row lives only until its caller reads the result or gives up.
 */

import { z } from "zod";
import { type SubmittedResult, shapeToolResult } from "@/sdk/src/contract/result-checks";
import { fmt } from "@/universal/format";
import { getDb } from "../../db";
import { DomainError, isToolCallFailure, type ToolCallFailure, type ToolCallFailureCode } from "../../errors";
import { isDraining } from "../../instance";
import { LIMITS } from "../../limits";
import { heartbeat, type ToolHost } from "../sources/tool-hosts";
import { parseInput } from "../validation";
import { acceptToolResult, type ToolResult } from "./result";
import { wake, watch } from "./wakeups";

const POLL_MS = 200;

/** Queues a call for the host and waits for its result, at most the Tool Call time limit. */
export async function callHostTool(options: {
  sourceId: string;
  nativeName: string;
  arguments: Record<string, unknown>;
  signal?: AbortSignal;
  /** The call's deadline from now: the Tool's declared timeoutSeconds, or the default. */
  limitMs?: number;
}): Promise<ToolResult> {
  const db = await getDb();
  const limitMs = options.limitMs ?? LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS.value * 1000;
  const deadline = new Date(Date.now() + limitMs);
  const call = await db.toolCall.create({
    data: {
      sourceId: options.sourceId,
      nativeName: options.nativeName,
      arguments: JSON.stringify(options.arguments),
      deadline,
    },
    select: { id: true },
  });
  const answered = watch(`call:${call.id}`);
  wake(`source:${options.sourceId}`);
  try {
    while (Date.now() < deadline.getTime() && !options.signal?.aborted) {
      const row = await db.toolCall.findUnique({
        where: { id: call.id },
        select: { status: true, result: true, source: { select: { name: true, hostSilentSince: true } } },
      });
      if (!row) break; // the Source was deleted
      if (row.status === "succeeded" && row.result) return JSON.parse(row.result) as ToolResult;
      // Read here rather than written to each queued row: whichever instance withdrew the
      // host (a goodbye, the silence sweep), every waiter learns it on its next read, and a
      // call queued just after the withdrawal fails too instead of waiting out its deadline.
      if (row.status === "pending" && row.source.hostSilentSince) throw hostOffline(row.source);
      // A host answer that broke the contract fails this call with the code it broke.
      if (row.status === "failed" && row.result) {
        const failure = JSON.parse(row.result) as StoredFailure;
        throw new DomainError(failure.code, failure.message, failure.details);
      }
      await answered.pause(Math.min(POLL_MS, deadline.getTime() - Date.now()), options.signal);
    }
  } finally {
    answered.close();
    await db.toolCall.deleteMany({ where: { id: call.id } });
  }
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
  const arrivals = watch(`source:${host.id}`);
  try {
    return await claimCalls(host, waitMs, batch, arrivals, signal);
  } finally {
    arrivals.close();
  }
}

async function claimCalls(
  host: ToolHost,
  waitMs: number,
  batch: number,
  arrivals: ReturnType<typeof watch>,
  signal?: AbortSignal,
): Promise<CollectedCall[]> {
  await heartbeat(host);
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
      await db.toolCall.updateMany({
        where: { id: { in: claimed.map((c) => c.id) }, status: "delivered" },
        data: { status: "pending", deliveredAt: null },
      });
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
    await arrivals.pause(Math.min(POLL_MS, left), signal);
  }
}

const ZSubmission = z.object({
  results: z
    .array(
      z.union([
        z.object({ id: z.string().min(1), output: z.string() }).strict(),
        z.object({ id: z.string().min(1), error: z.string() }).strict(),
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
  const db = await getDb();
  const outcome: SubmissionOutcome = { delivered: [], refused: [], unknown: [] };
  for (const submitted of results) {
    let stored: ToolResult | StoredFailure;
    let refusal: ToolCallFailure | null = null;
    try {
      stored = resultOf(submitted);
    } catch (error) {
      if (!isToolCallFailure(error)) throw error;
      refusal = error;
      stored = { code: error.code, message: error.message, details: error.details ?? {} };
    }
    const { count } = await db.toolCall.updateMany({
      where: { id: submitted.id, sourceId: host.id, status: "delivered" },
      data: { status: refusal ? "failed" : "succeeded", result: JSON.stringify(stored) },
    });
    if (!count) outcome.unknown.push(submitted.id);
    else if (refusal) outcome.refused.push({ id: submitted.id, code: refusal.code, message: refusal.message });
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
