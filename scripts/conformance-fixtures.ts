/**
 * The Tools the conformance suite's tasks scenarios call (slow_compute, greet, failing_job,
 * protocol_error_job, confirm_delete, multi_input, test_tool_with_task), served on loopback
 * by a 2025-11-25 MCP server with the tasks utility — the revision whose tasks Quartermaster
 * starts on a Source (decision 0088) — so the scenarios go /mcp → Quartermaster → this Source
 * and judge what the gateway makes of it (decision 0101).
 *
 * Each Tool behaves as the scenario's description asks of the suite's own fixture: slow_compute
 * works `seconds` then answers, greet answers at once and never as a task, failing_job (task
 * required) ends `completed` with an isError result, protocol_error_job ends `failed` with a
 * JSON-RPC error, confirm_delete and multi_input ask their requestor for input (a 2025-11-25
 * task does so by going `input_required`), test_tool_with_task asks for a name before it runs.
 * Stateless HTTP, tasks kept in one map, as tests/helpers/task-server.ts.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";
interface Task {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval: number;
  outcome?: { result: Record<string, unknown> } | { error: { code: number; message: string } };
}

const anyArgs = { type: "object" } as const;
const TOOLS = [
  {
    name: "slow_compute",
    description: "Works for `seconds` seconds, then answers with its label.",
    inputSchema: {
      type: "object",
      properties: { seconds: { type: "number", minimum: 0, maximum: 300 }, label: { type: "string" } },
    },
    execution: { taskSupport: "optional" },
  },
  {
    name: "greet",
    description: "Greets someone by name.",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
  },
  {
    name: "failing_job",
    description: "A job that always ends in a tool error.",
    inputSchema: anyArgs,
    execution: { taskSupport: "required" },
  },
  {
    name: "protocol_error_job",
    description: "A job whose task always fails with a protocol error.",
    inputSchema: anyArgs,
    execution: { taskSupport: "required" },
  },
  {
    name: "confirm_delete",
    description: "Deletes a file once its requestor confirms.",
    inputSchema: { type: "object", properties: { filename: { type: "string" } } },
    execution: { taskSupport: "optional" },
  },
  {
    name: "multi_input",
    description: "Asks its requestor two questions before it finishes.",
    inputSchema: anyArgs,
    execution: { taskSupport: "optional" },
  },
  {
    name: "test_tool_with_task",
    description: "Asks its requestor for a name, then greets them as a task.",
    inputSchema: anyArgs,
    execution: { taskSupport: "optional" },
  },
];

const text = (t: string, isError = false) => ({
  content: [{ type: "text", text: t }],
  ...(isError ? { isError } : {}),
});
const ASKS = new Set(["confirm_delete", "multi_input", "test_tool_with_task"]);

export async function startConformanceFixtures(): Promise<{ url: string; close(): Promise<void> }> {
  const tasks = new Map<string, Task>();
  const settle = (task: Task, status: Status, outcome?: Task["outcome"], statusMessage?: string) => {
    if (task.status !== "working" && task.status !== "input_required") return;
    Object.assign(task, { status, outcome, statusMessage, lastUpdatedAt: new Date().toISOString() });
  };
  const start = (name: string, args: Record<string, unknown>, ttl: number | null): Task => {
    const now = new Date().toISOString();
    const task: Task = {
      taskId: randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: 200,
    };
    tasks.set(task.taskId, task);
    const later = (ms: number, fn: () => void) => setTimeout(fn, ms).unref();
    if (name === "slow_compute")
      later(Number(args.seconds ?? 0) * 1000, () =>
        settle(task, "completed", { result: text(`slow_compute done: ${String(args.label ?? "")}`) }),
      );
    else if (name === "failing_job")
      later(100, () => settle(task, "completed", { result: text("failing_job: the job failed", true) }));
    else if (name === "protocol_error_job")
      later(100, () =>
        settle(
          task,
          "failed",
          { error: { code: -32603, message: "protocol_error_job: internal error" } },
          "internal error",
        ),
      );
    else if (ASKS.has(name)) {
      task.status = "input_required";
      task.statusMessage = `${name} needs its requestor's answer`;
    }
    return task;
  };
  const shown = ({ outcome: _o, ...task }: Task) => task;

  const answer = (method: string, params: Record<string, unknown>): { result?: unknown; error?: unknown } => {
    switch (method) {
      case "initialize":
        return {
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
            serverInfo: { name: "conformance-fixtures", version: "1" },
          },
        };
      case "ping":
        return { result: {} };
      case "tools/list":
        return { result: { tools: TOOLS } };
      case "tools/call": {
        const name = String(params.name);
        const tool = TOOLS.find((t) => t.name === name);
        if (!tool) return { error: { code: -32602, message: `Unknown tool ${name}` } };
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        const support = tool.execution?.taskSupport ?? "forbidden";
        if (params.task) {
          if (support === "forbidden") return { error: { code: -32601, message: `${name} does not run as a task` } };
          const ttl = (params.task as { ttl?: number }).ttl ?? 60_000;
          return { result: { task: shown(start(name, args, ttl)) } };
        }
        if (support === "required") return { error: { code: -32601, message: `${name} runs only as a task` } };
        if (name === "greet") return { result: text(`Hello, ${String(args.name ?? "stranger")}!`) };
        if (name === "slow_compute") return { result: text(`slow_compute done: ${String(args.label ?? "")}`) };
        // Asking needs the requestor's elicitation capability, which a call without it lacks.
        return {
          result: text(`${name} needs its requestor's answer (elicitation), which this call cannot give`, true),
        };
      }
      case "tasks/get":
      case "tasks/cancel":
      case "tasks/result": {
        const task = tasks.get(String(params.taskId));
        if (!task) return { error: { code: -32602, message: "Failed to retrieve task: Task not found" } };
        if (method === "tasks/cancel") {
          if (task.status !== "working" && task.status !== "input_required")
            return { error: { code: -32602, message: `Cannot cancel a task that is ${task.status}` } };
          settle(task, "cancelled");
        }
        if (method !== "tasks/result") return { result: shown(task) };
        if (!task.outcome) return { error: { code: -32602, message: `Task is ${task.status}; it has no result` } };
        if ("error" in task.outcome) return { error: task.outcome.error };
        return {
          result: {
            ...task.outcome.result,
            _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
          },
        };
      }
      default:
        return { error: { code: -32601, message: "Method not found" } };
    }
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== "POST") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
    let message: { id?: number | string; method: string; params?: Record<string, unknown> };
    try {
      message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return void res.writeHead(400).end();
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    const params = message.params ?? {};
    // tasks/result waits for the task to end, as the tasks utility says (a bounded wait here).
    if (message.method === "tasks/result") {
      const task = tasks.get(String(params.taskId));
      for (let i = 0; task?.status === "working" && i < 1200; i++) await new Promise((r) => setTimeout(r, 50));
    }
    // A sync slow_compute works as long as a task of it would.
    if (message.method === "tools/call" && params.name === "slow_compute" && !params.task) {
      const seconds = Number((params.arguments as { seconds?: number } | undefined)?.seconds ?? 0);
      await new Promise((r) => setTimeout(r, Math.min(seconds, 30) * 1000));
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer(message.method, params) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
