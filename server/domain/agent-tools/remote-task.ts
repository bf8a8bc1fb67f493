/**
 * A Tool that runs only as a task (MCP 2025-11-25 `execution.taskSupport: "required"`),
 * called for an agent whose request is a plain tools/call: Quartermaster starts the task on
 * the Source, polls `tasks/get` at the Source's poll interval within the Tool Call time
 * limit, and answers the agent with `tasks/result` — so the model calls it like any other
 * Tool. A call abandoned (the agent hung up) or out of time cancels the task on the Source
 * (`tasks/cancel`), so nothing runs on after nobody will read its result.
 */
import type { Client } from "@modelcontextprotocol/client";
import { DomainError } from "../../errors";
import { log } from "../../log";
import { AS_SENT, type CatalogTransport } from "../catalog/catalog-transport";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
/** When the Source names no poll interval, and the bounds of what it may name. */
const POLL_MS = { default: 1000, least: 100, most: 5000 };

/** A task as a 2025-11-25 Source reports it (tasks/get, or the `task` of a CreateTaskResult). */
export interface TaskState {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  pollInterval?: number;
}

export const isTerminal = (status: string) => TERMINAL.has(status);

/**
 * A task-augmented tools/call on the Source: its task, or — a Source may answer such a call
 * at once — its result.
 */
export async function startRemoteTask(
  client: Client,
  transport: CatalogTransport,
  call: { nativeName: string; arguments: Record<string, unknown> },
  options: { ttlMs: number; timeout: number; signal?: AbortSignal },
): Promise<{ task: TaskState } | { result: Record<string, unknown> }> {
  const created = await client.request(
    {
      method: "tools/call",
      params: { name: call.nativeName, arguments: call.arguments, task: { ttl: options.ttlMs } },
    } as never,
    AS_SENT,
    { signal: options.signal, timeout: options.timeout },
  );
  const raw = transport.rawResult((created as { content?: unknown }).content) ?? created;
  const task = (raw as { task?: TaskState }).task;
  return task && typeof task.taskId === "string" ? { task } : { result: raw };
}

export async function runRemoteTask(
  client: Client,
  transport: CatalogTransport,
  call: { nativeName: string; arguments: Record<string, unknown> },
  limits: { deadline: number; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  const left = () => Math.max(1, limits.deadline - Date.now());
  const options = () => ({ signal: limits.signal, timeout: left() });
  const started = await startRemoteTask(client, transport, call, { ttlMs: left(), ...options() });
  if ("result" in started) return started.result;
  const first = started.task;
  let task: TaskState = first;
  try {
    while (!TERMINAL.has(task.status)) {
      if (task.status === "input_required")
        throw new DomainError(
          "SOURCE_CALL_ERROR",
          `The Source's task asks for input${task.statusMessage ? ` (${task.statusMessage})` : ""}, which a Tool Call through Quartermaster cannot give.`,
        );
      const wait = Math.min(
        Math.max(task.pollInterval ?? POLL_MS.default, POLL_MS.least),
        POLL_MS.most,
        Math.max(0, left() - 1),
      );
      await sleep(wait, limits.signal);
      task = (await client.request(
        { method: "tasks/get", params: { taskId: first.taskId } } as never,
        AS_SENT,
        options(),
      )) as unknown as TaskState;
    }
    return (await client.request(
      { method: "tasks/result", params: { taskId: first.taskId } } as never,
      AS_SENT,
      options(),
    )) as Record<string, unknown>;
  } catch (error) {
    if (!TERMINAL.has(task.status)) cancel(client, first.taskId);
    throw error;
  }
}

/** Best effort, not awaited by the caller: the call has failed already, whatever the Source says. */
function cancel(client: Client, taskId: string) {
  client
    .request({ method: "tasks/cancel", params: { taskId } } as never, AS_SENT, { timeout: 5000 })
    .catch((error: unknown) => log.debug({ err: error, taskId }, "a Source's task could not be cancelled"));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
