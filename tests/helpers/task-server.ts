/**
 * A loopback MCP server that runs Tools as 2025-11-25 tasks, hand-written so a test sees
 * every task request it gets: `slow_report` requires a task, `quick_sum` allows one,
 * `plain_echo` forbids them. Stateless (no session), its tasks kept in one map, so a task
 * started through one Quartermaster instance is reachable through another, as with a
 * server that keeps tasks in its own database. A task ends `finishMs` after it starts,
 * unless its arguments say `hold: true` (it works until cancelled) or `fail: true` (it ends
 * `failed`, and its tasks/result is a JSON-RPC error, as a task that failed as a request).
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { closeWithConnections, listenOnLoopback } from "./loopback";

interface Task {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval: number;
  result?: Record<string, unknown>;
}

export interface TaskServer {
  url: string;
  /** Every JSON-RPC request received, in order. */
  received: { method: string; params: Record<string, unknown> }[];
  tasks: Map<string, Task>;
  close(): Promise<void>;
}

const schema = {
  type: "object",
  properties: {
    topic: { type: "string" },
    hold: { type: "boolean" },
    ask: { type: "boolean" },
    fail: { type: "boolean" },
  },
};
export const TASK_TOOLS = [
  {
    name: "slow_report",
    description: "Writes a report on a topic.",
    inputSchema: schema,
    execution: { taskSupport: "required" },
  },
  {
    name: "quick_sum",
    description: "Sums what it is given.",
    inputSchema: schema,
    execution: { taskSupport: "optional" },
  },
  { name: "plain_echo", description: "Echoes a topic back.", inputSchema: schema },
];

export async function startTaskServer(options: { finishMs?: number } = {}): Promise<TaskServer> {
  const finishMs = options.finishMs ?? 300;
  const received: TaskServer["received"] = [];
  const tasks = new Map<string, Task>();
  const resultOf = (name: string, args: Record<string, unknown>) => ({
    content: [{ type: "text", text: `${name} done: ${String(args.topic ?? "")}` }],
  });
  const touch = (task: Task, status: Task["status"]) => {
    if (task.status !== "working" && task.status !== "input_required") return;
    task.status = status;
    task.lastUpdatedAt = new Date().toISOString();
  };
  const answer = (message: {
    method: string;
    params?: Record<string, unknown>;
  }): { result?: unknown; error?: unknown } => {
    const params = message.params ?? {};
    switch (message.method) {
      case "initialize":
        return {
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
            serverInfo: { name: "task-server", version: "1" },
          },
        };
      case "tools/list":
        return { result: { tools: TASK_TOOLS } };
      case "tools/call": {
        const name = String(params.name);
        const tool = TASK_TOOLS.find((t) => t.name === name);
        if (!tool) return { error: { code: -32602, message: `Unknown tool ${name}` } };
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        const support = (tool.execution as { taskSupport?: string } | undefined)?.taskSupport ?? "forbidden";
        if (!params.task) {
          if (support === "required") return { error: { code: -32601, message: `${name} runs only as a task` } };
          return { result: resultOf(name, args) };
        }
        if (support === "forbidden") return { error: { code: -32601, message: `${name} does not run as a task` } };
        const now = new Date().toISOString();
        const task: Task = {
          taskId: randomUUID(),
          status: "working",
          createdAt: now,
          lastUpdatedAt: now,
          ttl: (params.task as { ttl?: number }).ttl ?? 60_000,
          pollInterval: 100,
          result: resultOf(name, args),
        };
        tasks.set(task.taskId, task);
        // `ask: true`: the task asks its requestor for input at once (and waits for it until cancelled).
        if (args.ask === true) task.status = "input_required";
        else if (args.fail === true) task.status = "failed";
        else if (args.hold !== true) setTimeout(() => touch(task, "completed"), finishMs).unref();
        const { result: _r, ...shown } = task;
        return { result: { task: shown } };
      }
      case "tasks/get":
      case "tasks/cancel":
      case "tasks/result": {
        const task = tasks.get(String(params.taskId));
        if (!task) return { error: { code: -32602, message: "Failed to retrieve task: Task not found" } };
        if (message.method === "tasks/cancel") {
          if (task.status !== "working" && task.status !== "input_required")
            return { error: { code: -32602, message: "Task is already terminal" } };
          touch(task, "cancelled");
        }
        const { result, ...shown } = task;
        if (message.method !== "tasks/result") return { result: shown };
        if (task.status === "working" || task.status === "input_required")
          return { error: { code: -32603, message: "still working (this server does not block)" } };
        if (task.status === "cancelled") return { error: { code: -32000, message: "Task cancelled" } };
        if (task.status === "failed") return { error: { code: -32603, message: "the report's data store is down" } };
        return { result: { ...result, _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } } } };
      }
      default:
        return { error: { code: -32601, message: "Method not found" } };
    }
  };
  const handler: http.RequestListener = async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== "POST") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      id?: number;
      method: string;
      params?: Record<string, unknown>;
    };
    if (message.id === undefined) return void res.writeHead(202).end();
    received.push({ method: message.method, params: message.params ?? {} });
    // tasks/result blocks until the task ends, as the tasks utility says.
    if (message.method === "tasks/result") {
      const task = tasks.get(String(message.params?.taskId));
      for (let i = 0; task?.status === "working" && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer(message) }));
  };
  const { server, origin } = await listenOnLoopback(handler);
  return { url: `${origin}/mcp`, received, tasks, close: closeWithConnections(server) };
}

/** What a 2026-07-28 client puts in each request's `_meta` to say it takes tasks (the extension). */
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export interface ModernTaskServer extends TaskServer {
  /** Each request's headers, in the order received (Mcp-Method and Mcp-Name included). */
  headers: Record<string, string | string[] | undefined>[];
}

/**
 * A loopback MCP server that speaks only 2026-07-28 (server/discover, no initialize, no
 * session) and runs Tools as tasks through the `io.modelcontextprotocol/tasks` extension:
 * it advertises the extension, answers a tools/call that declares it in its per-request
 * capabilities with a CreateTaskResult (`resultType: "task"`, ttlMs, pollIntervalMs) when
 * the Tool runs as a task, inlines the result in tasks/get once completed, acknowledges
 * tasks/cancel empty, and has no tasks/result. `slow_report` cannot run without a task: a
 * call that does not declare the extension gets -32021, as the extension says. `quick_sum`
 * becomes a task only with `hold: true` (the server decides per request), `plain_echo` never.
 * `fail: true` makes the task fail with a JSON-RPC error.
 */
export async function startModernTaskServer(options: { finishMs?: number } = {}): Promise<ModernTaskServer> {
  const finishMs = options.finishMs ?? 300;
  const received: TaskServer["received"] = [];
  const headers: ModernTaskServer["headers"] = [];
  const tasks = new Map<string, Task & { error?: { code: number; message: string } }>();
  const tools = TASK_TOOLS.map(({ execution: _e, ...tool }) => tool);
  const resultOf = (name: string, args: Record<string, unknown>) => ({
    content: [{ type: "text", text: `${name} done: ${String(args.topic ?? "")}` }],
  });
  const shown = (task: Task & { error?: unknown }) => {
    const { result, error, ttl, pollInterval, ...rest } = task;
    return {
      ...rest,
      ttlMs: ttl,
      pollIntervalMs: pollInterval,
      ...(task.status === "completed" ? { result } : {}),
      ...(task.status === "failed" ? { error } : {}),
    };
  };
  const answer = (message: { method: string; params?: Record<string, unknown> }) => {
    const params = message.params ?? {};
    const meta = params._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined;
    const declared = Object.hasOwn(meta?.[CLIENT_CAPABILITIES]?.extensions ?? {}, TASKS_EXTENSION);
    switch (message.method) {
      case "server/discover":
        return {
          result: {
            resultType: "complete",
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
            serverInfo: { name: "modern-task-server", version: "1" },
            ttlMs: 0,
            cacheScope: "private",
          },
        };
      case "tools/list":
        return { result: { resultType: "complete", tools, ttlMs: 0, cacheScope: "private" } };
      case "tools/call": {
        const name = String(params.name);
        if (!tools.some((t) => t.name === name)) return { error: { code: -32602, message: `Unknown tool ${name}` } };
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        const asTask = name === "slow_report" || (name === "quick_sum" && args.hold === true);
        if (!asTask) return { result: { resultType: "complete", ...resultOf(name, args) } };
        if (!declared)
          return {
            error: {
              code: -32021,
              message: "Missing required client capability",
              data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
            },
          };
        const now = new Date().toISOString();
        const task: Task & { error?: { code: number; message: string } } = {
          taskId: randomUUID(),
          status: "working",
          createdAt: now,
          lastUpdatedAt: now,
          ttl: 60_000,
          pollInterval: 100,
          result: resultOf(name, args),
        };
        tasks.set(task.taskId, task);
        if (args.hold !== true)
          setTimeout(() => {
            if (task.status !== "working") return;
            task.lastUpdatedAt = new Date().toISOString();
            if (args.fail === true) {
              task.status = "failed";
              task.error = { code: -32603, message: "the report's archive is unreachable" };
            } else task.status = "completed";
          }, finishMs).unref();
        return { result: { resultType: "task", ...shown(task) } };
      }
      case "tasks/get":
      case "tasks/cancel": {
        if (!declared)
          return {
            error: {
              code: -32021,
              message: "Missing required client capability",
              data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
            },
          };
        const task = tasks.get(String(params.taskId));
        if (!task) return { error: { code: -32602, message: "Failed to retrieve task: Task not found" } };
        if (message.method === "tasks/get") return { result: { resultType: "complete", ...shown(task) } };
        if (task.status === "working" || task.status === "input_required") {
          task.status = "cancelled";
          task.lastUpdatedAt = new Date().toISOString();
        }
        return { result: { resultType: "complete" } };
      }
      default:
        return { error: { code: -32601, message: "Method not found" } };
    }
  };
  const handler: http.RequestListener = async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== "POST") return void res.writeHead(405).end();
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      id?: number;
      method: string;
      params?: Record<string, unknown>;
    };
    if (message.id === undefined) return void res.writeHead(202).end();
    received.push({ method: message.method, params: message.params ?? {} });
    headers.push(req.headers);
    const answered = answer(message);
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answered }));
  };
  const { server, origin } = await listenOnLoopback(handler);
  return { url: `${origin}/mcp`, received, headers, tasks, close: closeWithConnections(server) };
}
