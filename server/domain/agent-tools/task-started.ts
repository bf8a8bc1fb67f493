/**
 * A tools/call that became a task (docs/decisions/0088): what the agent is answered with —
 * the task under Quartermaster's handle — and what the call log records (the call succeeded
 * in starting it; the task's own end is the Source's, read by the agent's polls).
 */
import { LIMITS } from "../../limits";
import type { TaskState } from "./remote-task";
import type { AgentTask, Dispatched } from "./result";
import { mintTaskHandle } from "./task-handles";

/** The longest a task may be kept for an agent: as long as its handle is honoured. */
export const TASK_TTL_MS = () => LIMITS.TASK_HANDLE_TTL_SECONDS.value * 1000;

/** When a Source names no poll interval, and when an approval is worth asking about again. */
const DEFAULT_POLL_MS = 1000;

const STATUSES = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/** A Source's task as the agent sees it: our handle for its id, its own state otherwise. */
export function agentTaskOf(handle: string, task: TaskState, now = new Date()): AgentTask {
  const at = now.toISOString();
  return {
    taskId: handle,
    status: (STATUSES.has(task.status) ? task.status : "working") as AgentTask["status"],
    ...(typeof task.statusMessage === "string" ? { statusMessage: task.statusMessage.slice(0, 1000) } : {}),
    createdAt: typeof task.createdAt === "string" ? task.createdAt : at,
    lastUpdatedAt: typeof task.lastUpdatedAt === "string" ? task.lastUpdatedAt : at,
    ttlMs: typeof task.ttl === "number" ? Math.min(task.ttl, TASK_TTL_MS()) : TASK_TTL_MS(),
    pollIntervalMs: typeof task.pollInterval === "number" ? task.pollInterval : DEFAULT_POLL_MS,
  };
}

function taskDispatched(task: AgentTask, text: string, failureCode: string | null = null): Dispatched {
  return {
    result: { content: [{ type: "text", text }], structuredContent: { task } },
    // Started on its Source: the call did what was asked. Parked: nothing ran yet, as on a retry.
    outcome: failureCode ? { outcome: "failed", failureCode } : { outcome: "ok", failureCode: null },
    task,
  };
}

export function startedTask(identityId: string, toolName: string, sourceId: string, state: TaskState): Dispatched {
  const handle = mintTaskHandle(identityId, { kind: "source", sourceId, taskId: state.taskId, toolName });
  return taskDispatched(agentTaskOf(handle, state), `Started as task ${handle} on its Source (${state.status}).`);
}

export function approvalTask(identityId: string, toolName: string, approvalId: string, waiting: string): Dispatched {
  const handle = mintTaskHandle(identityId, { kind: "approval", approvalId, toolName });
  const now = new Date().toISOString();
  const task: AgentTask = {
    taskId: handle,
    status: "working",
    statusMessage: waiting,
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: LIMITS.APPROVAL_TTL_SECONDS.value * 1000,
    pollIntervalMs: LIMITS.APPROVAL_RETRY_AFTER_SECONDS.value * 1000,
  };
  return taskDispatched(task, `Waits for an approver as task ${handle}.`, "APPROVAL_PENDING");
}
