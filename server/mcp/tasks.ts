/**
 * Tasks at /mcp (docs/decisions/0088), in each revision's words: the 2025-11-25 tasks
 * utility (a `task` in tools/call's params, CreateTaskResult `{ task }`, tasks/get,
 * tasks/result, tasks/cancel) and the 2026-07-28 `io.modelcontextprotocol/tasks` extension
 * (declared per request; `resultType: "task"`, tasks/get with the result inlined,
 * tasks/cancel and tasks/update acknowledged empty). What a task is and where it runs is
 * the domain's (agent-tools/agent-tasks.ts); this file only speaks the protocol.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  RELATED_TASK_META_KEY,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Actor } from "../actor";
import {
  type AboutTask,
  agentTaskOutcome,
  cancelAgentTask,
  getAgentTask,
  type RunApproved,
} from "../domain/agent-tools/agent-tasks";
import type { AgentTask } from "../domain/agent-tools/result";
import { openTaskHandle, taskHandleFingerprint } from "../domain/agent-tools/task-handles";
import { observeSourceRequest } from "../domain/calls/observe";
import { isDomainError } from "../errors";
import { toolResultForRevision } from "./downgrade";
import { toMcpError } from "./errors";
import { SERVED_REVISIONS } from "./revisions";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const MODERN = SERVED_REVISIONS[0];
/** The only 2025 revision with the tasks utility. */
const TASKS_2025 = "2025-11-25";

/**
 * What /mcp declares, no more: task-augmented tools/call and tasks/cancel; no tasks/list (a
 * stateless server keeps no list of an agent's tasks) and no task-augmented requests of its own.
 */
export function taskCapabilities(revision: string): ServerCapabilities {
  if (revision === MODERN) return { extensions: { [TASKS_EXTENSION]: {} } };
  if (revision === TASKS_2025)
    return { tasks: { cancel: {}, requests: { tools: { call: {} } } } } as ServerCapabilities;
  return {};
}

/** Whether this tools/call may be answered with a task, and whether the client asked for one. */
export function taskWanted(
  request: { params: { task?: { ttl?: number } } },
  ctx: ServerContext,
  revision: string,
): { ttlMs?: number; requested: boolean } | undefined {
  if (revision === TASKS_2025 && request.params.task && typeof request.params.task === "object")
    return {
      requested: true,
      ...(typeof request.params.task.ttl === "number" ? { ttlMs: request.params.task.ttl } : {}),
    };
  if (revision === MODERN && declaresExtension(ctx)) return { requested: false };
  return undefined;
}

function declaresExtension(ctx: ServerContext): boolean {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return !!capabilities?.extensions && Object.hasOwn(capabilities.extensions, TASKS_EXTENSION);
}

/** The task, as tools/call answers it in the client's revision. */
export function createTaskResult(task: AgentTask, revision: string): Record<string, unknown> {
  if (revision === MODERN) return { resultType: "task", ...task };
  return { task: task2025(task) };
}

function task2025(task: AgentTask) {
  const { ttlMs, pollIntervalMs, error: _error, ...rest } = task;
  return { ...rest, ttl: ttlMs, ...(pollIntervalMs !== undefined ? { pollInterval: pollIntervalMs } : {}) };
}

/**
 * Thrown by the tools/call handler to answer with a task: the SDK's Server checks every
 * tools/call answer against CallToolResult, which a task is not, so the answer is carried
 * past that check (TaskServer) rather than padded to look like a result.
 */
export class TaskAnswer {
  constructor(readonly result: Record<string, unknown>) {}
}

export class TaskServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: Parameters<Server["_wrapHandler"]>[1],
  ): ReturnType<Server["_wrapHandler"]> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (answer) {
        if (answer instanceof TaskAnswer) return answer.result as never;
        throw answer;
      }
    };
  }
}

function sourceRefusedParams(error: unknown): boolean {
  return isDomainError(error) && error.code === "SOURCE_CALL_ERROR" && error.details?.jsonRpcCode === -32602;
}

const ZTaskParams = z.looseObject({ taskId: z.string() });
const ZUpdateParams = z.looseObject({
  taskId: z.string(),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

/** tasks/get, tasks/result (2025-11-25), tasks/cancel and tasks/update (2026-07-28) on a server built for `revision`. */
export function registerTaskHandlers(
  server: Server,
  actor: Actor,
  revision: string,
  options: { signal: AbortSignal; run: RunApproved },
) {
  const guard =
    <P, R>(method: string, answer: (params: P, ctx: ServerContext, about: AboutTask) => Promise<R>) =>
    async (params: P, ctx: ServerContext): Promise<R> => {
      // The extension's requests from a client that did not declare it: -32021, as it says.
      if (revision === MODERN && !declaresExtension(ctx))
        throw new MissingRequiredClientCapabilityError({
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
      // A poll is counted against the identity's calls per minute and logged as the method,
      // beside the task's Source and Tool; the task is named by a fingerprint of its id.
      const taskId =
        (params as { params?: { taskId?: unknown }; taskId?: unknown }).params?.taskId ??
        (params as { taskId?: unknown }).taskId;
      try {
        return await observeSourceRequest(
          actor,
          { kind: "task", name: method, arguments: { task: taskHandleFingerprint(taskId) } },
          (about) => answer(params, ctx, about),
        );
      } catch (error) {
        // The Source's "no such task" or "already ended" (invalid params) reaches the agent as such.
        if (sourceRefusedParams(error)) throw new ProtocolError(-32602, (error as Error).message);
        throw toMcpError(error);
      }
    };
  const signalOf = (ctx: ServerContext) => AbortSignal.any([options.signal, ctx.mcpReq.signal]);
  const outcomeOf = async (taskId: string, ctx: ServerContext, about: AboutTask) =>
    agentTaskOutcome(actor, taskId, { signal: signalOf(ctx), run: options.run, about });

  if (revision === TASKS_2025) {
    server.setRequestHandler(
      "tasks/get" as never,
      guard("tasks/get", async (request: { params: { taskId: string } }, ctx, about) =>
        task2025(await getAgentTask(actor, request.params.taskId, signalOf(ctx), about)),
      ) as never,
    );
    server.setRequestHandler(
      "tasks/cancel" as never,
      guard("tasks/cancel", async (request: { params: { taskId: string } }, ctx, about) =>
        task2025(await cancelAgentTask(actor, request.params.taskId, signalOf(ctx), about)),
      ) as never,
    );
    server.setRequestHandler(
      "tasks/result" as never,
      guard("tasks/result", async (request: { params: { taskId: string } }, ctx, about) => {
        const outcome = await outcomeOf(request.params.taskId, ctx, about);
        if ("error" in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message);
        const result = toolResultForRevision(outcome.result as CallToolResult, revision) as CallToolResult;
        return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: request.params.taskId } } };
      }) as never,
    );
    return;
  }
  if (revision !== MODERN) return;
  server.setRequestHandler(
    "tasks/get" as never,
    { params: ZTaskParams },
    guard("tasks/get", async (params: { taskId: string }, ctx, about) => {
      const task = await getAgentTask(actor, params.taskId, signalOf(ctx), about);
      // The 2026-07-28 task carries its end: the result (isError included) or the request's error.
      if ((task.status !== "completed" && task.status !== "failed") || task.error) return task;
      const outcome = await outcomeOf(params.taskId, ctx, about);
      if ("error" in outcome) return { ...task, status: "failed", error: outcome.error };
      return {
        ...task,
        status: "completed",
        result: toolResultForRevision(outcome.result as CallToolResult, revision),
      };
    }) as never,
  );
  server.setRequestHandler(
    "tasks/cancel" as never,
    { params: ZTaskParams },
    guard("tasks/cancel", async (params: { taskId: string }, ctx, about) => {
      try {
        await cancelAgentTask(actor, params.taskId, signalOf(ctx), about);
      } catch (error) {
        // Cancellation is cooperative here: a task that ended already is acknowledged as any other.
        if (!sourceRefusedParams(error)) throw error;
        const task = await getAgentTask(actor, params.taskId, signalOf(ctx));
        if (task.status === "working" || task.status === "input_required") throw error;
      }
      return {};
    }) as never,
  );
  // No task of ours ever asks for input, so nothing is outstanding: acknowledged, as the extension says.
  server.setRequestHandler(
    "tasks/update" as never,
    { params: ZUpdateParams },
    guard("tasks/update", async (params: { taskId: string }) => {
      openTaskHandle(actor.kind === "agent" ? actor.identityId : "", params.taskId);
      return {};
    }) as never,
  );
}
