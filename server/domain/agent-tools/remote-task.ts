/**
 * Tasks on a Source, in whichever dialect it speaks: the 2025-11-25 tasks utility (a `task`
 * in tools/call's params, `{ task }` back, tasks/get, tasks/result, tasks/cancel) or the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension (declared in the request's
 * capabilities, `resultType: "task"` back, tasks/get with the result inlined, tasks/cancel
 * acknowledged empty, no tasks/result). The SDK's v2 client has no extension, so its
 * requests are built here and sent over the same pooled session (decision 0100).
 *
 * A Tool that runs only as a task, called for an agent whose request is a plain tools/call:
 * Quartermaster starts the task on the Source, polls `tasks/get` at the Source's poll
 * interval within the Tool Call time limit, and answers the agent with its result — so the
 * model calls it like any other Tool. A call abandoned (the agent hung up) or out of time
 * cancels the task on the Source (`tasks/cancel`), so nothing runs on after nobody will
 * read its result.
 */
import { CLIENT_CAPABILITIES_META_KEY, type Client, ProtocolError } from "@modelcontextprotocol/client";
import { DomainError } from "../../errors";
import { log } from "../../log";
import { AS_SENT, type CatalogTransport } from "../catalog/catalog-transport";
import { isModernRevision } from "../catalog/protocol-revision";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * Whether this session's Source takes tasks through the 2026-07-28 extension: it negotiated
 * a modern revision and advertised the extension (server/discover).
 */
export function speaksTaskExtension(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  const extensions = (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return !!version && isModernRevision(version) && !!extensions && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** The extension is declared per request, in the request's own capabilities (the SDK's envelope gives way to it). */
const DECLARES_EXTENSION = { [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [TASKS_EXTENSION]: {} } } };

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
/** When the Source names no poll interval, and the bounds of what it may name. */
const POLL_MS = { default: 1000, least: 100, most: 5000 };

/**
 * A task as a Source reports it (tasks/get, or a CreateTaskResult), in 2025-11-25's words;
 * a 2026-07-28 task is read into them (taskStateOf), its end (`result` or `error`) kept.
 */
export interface TaskState {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  pollInterval?: number;
  /** 2026-07-28: a completed task's result, inlined. */
  result?: Record<string, unknown>;
  /** 2026-07-28: a failed task's JSON-RPC error. */
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** A 2026-07-28 task (ttlMs, pollIntervalMs, resultType) in TaskState's words. */
export function taskStateOf(raw: Record<string, unknown>): TaskState {
  const { resultType: _type, ttlMs, pollIntervalMs, ...rest } = raw;
  return {
    ...(rest as unknown as TaskState),
    ...(ttlMs === null || typeof ttlMs === "number" ? { ttl: ttlMs } : {}),
    ...(typeof pollIntervalMs === "number" ? { pollInterval: pollIntervalMs } : {}),
  };
}

/** A 2026-07-28 task's end as tasks/result would have answered it: the result, or its error thrown. */
export function endOfTask(state: TaskState): Record<string, unknown> {
  if (state.status === "completed" && state.result && typeof state.result === "object") return state.result;
  if (state.status === "failed") {
    const code = typeof state.error?.code === "number" ? state.error.code : -32603;
    const message = typeof state.error?.message === "string" ? state.error.message : "The Source's task failed.";
    throw new ProtocolError(code, message, state.error?.data);
  }
  if (state.status === "cancelled") throw new ProtocolError(-32602, "The Source's task was cancelled.");
  throw new ProtocolError(-32603, `The Source's task ended ${state.status} without a result.`);
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
  const modern = speaksTaskExtension(client);
  // A modern Source without the extension ignores `task` (as the extension says): not sent.
  const version = client.getNegotiatedProtocolVersion();
  const legacy = !modern && !(version && isModernRevision(version));
  const created = await client.request(
    {
      method: "tools/call",
      params: {
        name: call.nativeName,
        arguments: call.arguments,
        // 2026-07-28: the Source decides whether to answer with a task, and for how long it keeps it.
        ...(modern ? { _meta: DECLARES_EXTENSION } : legacy ? { task: { ttl: options.ttlMs } } : {}),
      },
    } as never,
    AS_SENT,
    { signal: options.signal, timeout: options.timeout },
  );
  const raw = transport.rawResult((created as { content?: unknown }).content) ?? created;
  if (modern)
    return raw.resultType === "task" && typeof raw.taskId === "string" ? { task: taskStateOf(raw) } : { result: raw };
  const task = (raw as { task?: TaskState }).task;
  return task && typeof task.taskId === "string" ? { task } : { result: raw };
}

/**
 * tasks/get, tasks/result or tasks/cancel on the Source, answered in 2025-11-25's words
 * whatever it speaks: at 2026-07-28 tasks/get is read into TaskState, tasks/cancel is its
 * empty acknowledgement, and tasks/result (not in the extension) polls tasks/get until the
 * task ends, then answers its inlined result or throws its error.
 */
export async function remoteTaskRequest(
  client: Client,
  method: "tasks/get" | "tasks/result" | "tasks/cancel",
  taskId: string,
  options: { signal?: AbortSignal; left: () => number },
): Promise<Record<string, unknown>> {
  const send = (name: "tasks/get" | "tasks/result" | "tasks/cancel", modern: boolean) =>
    client.request(
      { method: name, params: { taskId, ...(modern ? { _meta: DECLARES_EXTENSION } : {}) } } as never,
      AS_SENT,
      { signal: options.signal, timeout: options.left() },
    ) as Promise<Record<string, unknown>>;
  if (!speaksTaskExtension(client)) return send(method, false);
  if (method === "tasks/cancel") {
    const { resultType: _type, ...ack } = await send(method, true);
    return ack;
  }
  let state = taskStateOf(await send("tasks/get", true));
  if (method === "tasks/get") return state as unknown as Record<string, unknown>;
  // As a 2025 tasks/result does, the answer waits for the task to end (within the time limit).
  while (!TERMINAL.has(state.status) && state.status !== "input_required") {
    await sleep(pollWait(state, options.left), options.signal);
    state = taskStateOf(await send("tasks/get", true));
  }
  if (state.status === "input_required") throw new ProtocolError(-32603, "The Source's task asks for input.");
  return endOfTask(state);
}

function pollWait(task: TaskState, left: () => number): number {
  return Math.min(Math.max(task.pollInterval ?? POLL_MS.default, POLL_MS.least), POLL_MS.most, Math.max(0, left() - 1));
}

export async function runRemoteTask(
  client: Client,
  transport: CatalogTransport,
  call: { nativeName: string; arguments: Record<string, unknown> },
  limits: { deadline: number; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  const left = () => Math.max(1, limits.deadline - Date.now());
  const started = await startRemoteTask(client, transport, call, {
    ttlMs: left(),
    signal: limits.signal,
    timeout: left(),
  });
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
      await sleep(pollWait(task, left), limits.signal);
      task = (await remoteTaskRequest(client, "tasks/get", first.taskId, {
        signal: limits.signal,
        left,
      })) as unknown as TaskState;
    }
    // 2026-07-28: the last tasks/get carried the end already.
    if (task.result || task.error) return endOfTask(task);
    return await remoteTaskRequest(client, "tasks/result", first.taskId, { signal: limits.signal, left });
  } catch (error) {
    if (!TERMINAL.has(task.status)) cancel(client, first.taskId);
    throw error;
  }
}

/** Best effort, not awaited by the caller: the call has failed already, whatever the Source says. */
function cancel(client: Client, taskId: string) {
  remoteTaskRequest(client, "tasks/cancel", taskId, { left: () => 5000 }).catch((error: unknown) =>
    log.debug({ err: error, taskId }, "a Source's task could not be cancelled"),
  );
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
