/**
 * tasks/get, tasks/result and tasks/cancel from an agent, for a task Quartermaster started
 * (docs/decisions/0088). The task id is a sealed handle (task-handles.ts) naming the Source
 * and the Source's own task id, so any instance routes the request to the Source that owns
 * the task, with nothing stored; a handle for a call parked for approval is answered from
 * the approval itself. Each request is checked anew: the identity must still hold the Tool
 * on that Source.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError, isDomainError, isToolCallFailure, jsonRpcErrorOf } from "../../errors";
import { LIMITS } from "../../limits";
import {
  keepApprovedResult,
  keptApprovedResult,
  parkedCallOf,
  takeApprovedCall,
  withdrawParkedCall,
} from "../call-policies/approval";
import { heldToolsWhere } from "../identities/holdings";
import { loadUrlPolicy } from "../sources/network-policy";
import { openSourceHeaders, recordProtocolVersion } from "./call";
import { type RemoteSource, requestRemoteTask, sourceMessage } from "./remote-call";
import type { TaskState } from "./remote-task";
import { type AgentTask, acceptToolResult, type Dispatched, failedResult, type ToolResult } from "./result";
import { withProxiedUris } from "./source-surface";
import { openTaskHandle, type TaskTarget } from "./task-handles";
import { agentTaskOf, TASK_TTL_MS } from "./task-started";

/** How a task ended, for tasks/result (2025-11-25) or inlined in tasks/get (2026-07-28). */
export type TaskOutcome = { result: ToolResult } | { error: { code: number; message: string } };

/** Runs an approved call for its task (the transport's observed call path). */
export type RunApproved = (call: {
  name: string;
  arguments: Record<string, unknown>;
  /** The Tool definition the approver saw: a call of a changed Tool needs a new approval. */
  approvedDefinition: string;
}) => Promise<Dispatched>;

/** Told which Source and Tool a poll's task is of, once the handle is open (the poll's call log row). */
export type AboutTask = (task: { id: string; name: string; nativeName: string }) => void;

function identityOf(actor: Actor): string {
  if (actor.kind !== "agent") throw new DomainError("FORBIDDEN", "Only an Agent Identity has tasks.");
  return actor.identityId;
}

/** The Source a handle names, as the call path reaches it; TASK_SOURCE_GONE when it is not this identity's any more. */
async function sourceOf(
  identityId: string,
  target: Extract<TaskTarget, { kind: "source" }>,
  signal?: AbortSignal,
  about?: AboutTask,
) {
  const db = await getDb();
  const tool = await db.tool.findFirst({
    where: { ...heldToolsWhere(identityId), modelFacingName: target.toolName, sourceId: target.sourceId },
    select: {
      source: { select: { id: true, name: true, url: true, encryptedHeaders: true, protocolVersion: true } },
    },
  });
  if (!tool?.source.url)
    throw new DomainError(
      "TASK_SOURCE_GONE",
      `taskId: the task ran on a Source that was deleted, or whose Tool ${target.toolName} this Agent Identity no longer holds; its result cannot be reached.`,
      { field: "taskId" },
    );
  about?.({ id: tool.source.id, name: tool.source.name, nativeName: target.toolName });
  const { allowLinkLocal } = await loadUrlPolicy();
  const source = tool.source;
  return {
    sourceId: source.id,
    url: source.url as string,
    headers: openSourceHeaders(source),
    allowLinkLocal,
    protocolVersion: source.protocolVersion,
    onVersion: (v: string) => void recordProtocolVersion(source.id, v),
    signal,
  } satisfies RemoteSource;
}

export async function getAgentTask(
  actor: Actor,
  handle: unknown,
  signal?: AbortSignal,
  about?: AboutTask,
): Promise<AgentTask> {
  const identityId = identityOf(actor);
  const target = openTaskHandle(identityId, handle);
  if (target.kind === "approval") return approvalState(identityId, handle as string, target, about);
  const source = await sourceOf(identityId, target, signal, about);
  const state = (await requestRemoteTask({
    ...source,
    method: "tasks/get",
    taskId: target.taskId,
  })) as unknown as TaskState;
  const task = agentTaskOf(handle as string, state);
  if (state.status !== "input_required") return task;
  const error = inputUnsupported(target, state);
  return { ...task, status: "failed", statusMessage: error.message, error };
}

/**
 * A Source's task asking for input: Quartermaster's outbound client declares no elicitation
 * (nor the 2026-07-28 input requests), and a pooled session is shared by every agent, so the
 * request has no agent to reach. The agent's task fails with TASK_INPUT_UNSUPPORTED, on every
 * poll while the Source's task waits (nothing is stored to remember it by); the Source's task
 * stays until its ttl or the agent's tasks/cancel (decision 0094).
 */
function inputUnsupported(target: Extract<TaskTarget, { kind: "source" }>, state: TaskState) {
  const asked = typeof state.statusMessage === "string" ? ` (${state.statusMessage.slice(0, 200)})` : "";
  const { code, message } = jsonRpcErrorOf(
    new DomainError(
      "TASK_INPUT_UNSUPPORTED",
      `The Source's task of ${target.toolName} asks for input${asked}, which Quartermaster does not pass on to agents. Cancel this task (tasks/cancel) and call the Tool with arguments that need no further input.`,
    ),
  );
  return { code, message };
}

export async function cancelAgentTask(
  actor: Actor,
  handle: unknown,
  signal?: AbortSignal,
  about?: AboutTask,
): Promise<AgentTask> {
  const identityId = identityOf(actor);
  const target = openTaskHandle(identityId, handle);
  if (target.kind === "approval") {
    await withdrawParkedCall(identityId, target.approvalId);
    return approvalState(identityId, handle as string, target, about);
  }
  const source = await sourceOf(identityId, target, signal, about);
  const state = await requestRemoteTask({ ...source, method: "tasks/cancel", taskId: target.taskId });
  // A 2026-07-28-style empty acknowledgement says nothing of the state: it is being cancelled.
  return agentTaskOf(
    handle as string,
    {
      taskId: target.taskId,
      status: "cancelled",
      ...(state as Partial<TaskState>),
    } as TaskState,
  );
}

/**
 * The task's outcome: the Source's tasks/result (which waits for the task to end, within the
 * Tool Call time limit), held to the Tool Result limits like any result; for an approval, the
 * call run once now that it is approved, or the denial.
 */
export async function agentTaskOutcome(
  actor: Actor,
  handle: unknown,
  options: { signal?: AbortSignal; run: RunApproved; about?: AboutTask },
): Promise<TaskOutcome> {
  const identityId = identityOf(actor);
  const target = openTaskHandle(identityId, handle);
  if (target.kind === "approval") return approvalOutcome(identityId, target, options);
  const source = await sourceOf(identityId, target, options.signal, options.about);
  // Asked first: a Source's tasks/result on a task that waits for input would wait out the time limit.
  const state = (await requestRemoteTask({
    ...source,
    method: "tasks/get",
    taskId: target.taskId,
  })) as unknown as TaskState;
  if (state.status === "input_required") return { error: inputUnsupported(target, state) };
  try {
    const raw = await requestRemoteTask({ ...source, method: "tasks/result", taskId: target.taskId });
    const accepted = acceptToolResult(raw);
    return {
      result: Array.isArray(accepted.content)
        ? { ...accepted, content: withProxiedUris(source.sourceId, accepted.content) }
        : accepted,
    };
  } catch (error) {
    // A task that failed as a request is the Source's JSON-RPC error, passed on as such.
    const protocol = (error as { cause?: unknown }).cause ?? error;
    if (protocol instanceof ProtocolError)
      return { error: { code: protocol.code, message: sourceMessage(protocol.message).slice(0, 1000) } };
    // As the call path words it (remote-call.ts): the Source's JSON-RPC error, its code kept.
    const code = isDomainError(error) && error.code === "SOURCE_CALL_ERROR" ? error.details?.jsonRpcCode : undefined;
    if (typeof code === "number") return { error: { code, message: (error as Error).message.slice(0, 1000) } };
    if (isToolCallFailure(error)) return { result: failedResult(error).result };
    throw error;
  }
}

async function approvalState(
  identityId: string,
  handle: string,
  target: Extract<TaskTarget, { kind: "approval" }>,
  about?: AboutTask,
  now = new Date(),
): Promise<AgentTask> {
  const row = await parkedCallOf(identityId, target.approvalId);
  if (row) about?.({ id: row.sourceId, name: row.sourceName, nativeName: row.toolName });
  const base = {
    taskId: handle,
    createdAt: (row?.createdAt ?? now).toISOString(),
    lastUpdatedAt: (row?.decidedAt ?? row?.createdAt ?? now).toISOString(),
    ttlMs: TASK_TTL_MS(),
  };
  if (!row || (row.status === "pending" && row.expiresAt <= now))
    return { ...base, status: "cancelled", statusMessage: "The approval expired or was withdrawn; nothing ran." };
  if (row.status === "pending")
    return {
      ...base,
      status: "working",
      statusMessage: `Waits for an approver's decision in the console (approval ${row.id}).`,
    };
  if (row.status === "ran" && (await keptApprovedResult(identityId, row.id, now)).state === "running")
    return { ...base, status: "working", statusMessage: "Approved; the call is running." };
  return {
    ...base,
    status: "completed",
    statusMessage:
      row.status === "denied"
        ? `Denied by ${row.decidedByLabel ?? "an approver"}.`
        : row.status === "approved"
          ? "Approved: the call runs when its result is asked for."
          : "Approved, and the call ran.",
  };
}

async function approvalOutcome(
  identityId: string,
  target: Extract<TaskTarget, { kind: "approval" }>,
  { run, signal, about }: { run: RunApproved; signal?: AbortSignal; about?: AboutTask },
): Promise<TaskOutcome> {
  const row = await parkedCallOf(identityId, target.approvalId);
  if (row) about?.({ id: row.sourceId, name: row.sourceName, nativeName: row.toolName });
  if (row?.status === "denied")
    return {
      result: failedResult(
        new DomainError(
          "APPROVAL_DENIED",
          `${row.decidedByLabel ?? "An approver"} denied this call of ${row.toolName}: ${row.reason ?? "no reason given"}. Nothing was run; do not retry it with these arguments.`,
          { approvalId: row.id, reason: row.reason },
        ),
      ).result,
    };
  if (row?.status === "approved") {
    const args = await takeApprovedCall(identityId, row.id);
    if (args) {
      let dispatched: Dispatched;
      try {
        dispatched = await run({ name: row.toolName, arguments: args, approvedDefinition: row.definitionHash });
      } catch (error) {
        await keepApprovedResult(identityId, row.id, { notKept: "failed" });
        throw error;
      }
      // Kept for later polls, so a client that asks again gets this result, not a second run.
      await keepApprovedResult(identityId, row.id, dispatched.result);
      return { result: dispatched.result };
    }
  }
  if (row?.status === "ran" || row?.status === "approved") return keptOutcome(identityId, row.id, target, signal);
  return {
    error: {
      code: -32602,
      message: `The call of ${target.toolName} has not been approved${row ? "" : " and its approval is gone"}; poll tasks/get until it is completed.`,
    },
  };
}

/**
 * A poll after the one that ran the approved call: its kept result (waiting while another
 * poll is still running it), or TASK_RESULT_NOT_KEPT saying why there is none — never a
 * second run.
 */
async function keptOutcome(
  identityId: string,
  id: string,
  target: Extract<TaskTarget, { kind: "approval" }>,
  signal?: AbortSignal,
): Promise<TaskOutcome> {
  let kept = await keptApprovedResult(identityId, id);
  while (kept.state === "running") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    signal?.throwIfAborted();
    kept = await keptApprovedResult(identityId, id);
  }
  if (kept.state === "kept") return { result: kept.result as ToolResult };
  const why =
    kept.why === "too_large"
      ? `it was ${kept.bytes} bytes, over the ${LIMITS.APPROVAL_RESULT_BYTES.value} bytes kept (APPROVAL_RESULT_BYTES)`
      : kept.why === "failed"
        ? "the run that took it did not finish"
        : kept.why === "retry"
          ? "it ran for the agent's plain retry of the same call, which was answered with it"
          : `results are kept ${LIMITS.APPROVAL_RESULT_KEEP_SECONDS.value} s after the call ran (APPROVAL_RESULT_KEEP_SECONDS)`;
  const error = jsonRpcErrorOf(
    new DomainError(
      "TASK_RESULT_NOT_KEPT",
      `The approved call of ${target.toolName} ran already, for an earlier poll of this task; its result is not kept: ${why}. It is not run again.`,
      { approvalId: id, reason: kept.why },
    ),
  );
  return { error: { code: error.code, message: error.message } };
}
