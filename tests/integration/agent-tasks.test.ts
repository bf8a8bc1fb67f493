/**
 * Tasks through /mcp (issue 28, items 2 and 4; docs/decisions/0088): an agent's
 * task-augmented call of a Tool that runs as a task starts the task on its Source and is
 * answered with Quartermaster's sealed task id, which routes tasks/get, tasks/result and
 * tasks/cancel back to that Source from any instance (a second app process on the same
 * PostgreSQL database in the PostgreSQL leg). At 2025-11-25 through the MCP SDK 1.32
 * client's task API; at 2026-07-28 in JSON-RPC over HTTP, since the v2 client (2.4.0) has no
 * tasks extension and refuses `resultType: "task"`. Other identities', altered, forged and
 * deleted Sources' task ids are refused; a Tool that forbids tasks refuses a task-augmented call.
 */
import { Client as Client132 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport132 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { sweepCallLog } from "@/server/domain/calls/sweeper";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { type OtherInstance, startOtherInstance } from "../helpers/instance-process";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { postMcp } from "../helpers/mcp-rpc";
import {
  type ModernTaskServer,
  startModernTaskServer,
  startTaskServer,
  TASK_TOOLS,
  type TaskServer,
} from "../helpers/task-server";
import { usePostgres } from "../helpers/template";

const database = withTestDatabase();
const route = mcpRoute();
const EXTENSION = "io.modelcontextprotocol/tasks";

async function taskSource() {
  return sourceOn(await startTaskServer());
}

async function sourceOn<S extends TaskServer>(server: S) {
  route.closers.push(server.close);
  const { api, source } = await connectionTo(server.url);
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  const db = await getDb();
  const names = Object.fromEntries(
    (
      await db.tool.findMany({ where: { sourceId: source.id }, select: { nativeName: true, modelFacingName: true } })
    ).map((t) => [t.nativeName, t.modelFacingName as string]),
  );
  return { server, api, source, names };
}

/** A second instance in the PostgreSQL leg (its own process, pools and caches); this one's route otherwise. */
let other: OtherInstance | undefined;
async function secondUrl(): Promise<string> {
  if (!usePostgres) return route.url;
  const url = database.url();
  if (!url) throw new Error("no database URL");
  other ??= await startOtherInstance(url);
  route.closers.push(async () => other?.stop());
  return `${other.url}/mcp`;
}

async function client132(url: string, token: string) {
  const client = new Client132({ name: "tasks-2025", version: "1" });
  await client.connect(
    new Transport132(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  route.closers.push(() => client.close());
  return client;
}

const sourceTask = (server: TaskServer, method: string) =>
  server.received.filter((r) => r.method === method).map((r) => r.params.taskId as string);

describe("tasks at 2025-11-25 (MCP SDK 1.32 client)", () => {
  it("runs a task-required Tool as a task, polled and answered through another instance; another task is cancelled on the Source", async () => {
    const { server, source, names } = await taskSource();
    const { token } = await agentFor([source.id]);
    const client = await client132(route.url, token);
    // Declared as far as it goes: task-augmented tools/call and tasks/cancel, no tasks/list.
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });

    const created = await client.request(
      {
        method: "tools/call",
        params: { name: names.slow_report, arguments: { topic: "tides" }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const handle = created.task.taskId;
    expect(handle).toMatch(/^qmt1\./);
    const [sourceTaskId] = server.received.filter((r) => r.method === "tools/call").map((r) => r.params);
    expect(sourceTaskId).toMatchObject({ name: "slow_report", task: { ttl: 60_000 } });
    expect(handle).not.toContain([...server.tasks.keys()][0]);

    const elsewhere = await client132(await secondUrl(), token);
    let status = created.task.status;
    for (let i = 0; status === "working" && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await elsewhere.experimental.tasks.getTask(handle)).status;
    }
    expect(status).toBe("completed");
    const result = await elsewhere.experimental.tasks.getTaskResult(handle, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "slow_report done: tides" }]);
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId: handle });
    const own = [...server.tasks.keys()][0];
    expect(sourceTask(server, "tasks/get")).toContain(own);
    expect(sourceTask(server, "tasks/result")).toEqual([own]);
    // Cancelling a task that ended is invalid params, as the tasks utility says (the Source's answer, passed on).
    const late = await elsewhere.experimental.tasks.cancelTask(handle).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(late).toBe(-32602);

    // Cancelled through the second instance: the Source is told, its task ends cancelled.
    const held = await client.request(
      { method: "tools/call", params: { name: names.quick_sum, arguments: { hold: true }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await elsewhere.experimental.tasks.cancelTask(held.task.taskId);
    expect(cancelled.status).toBe("cancelled");
    const heldOnSource = [...server.tasks.values()].find((t) => t.taskId !== own);
    expect(sourceTask(server, "tasks/cancel")).toEqual([own, heldOnSource?.taskId]);
    expect(heldOnSource?.status).toBe("cancelled");

    // The call log holds the two calls that started tasks, as succeeded.
    await flushCallLog();
    const db = await getDb();
    const rows = await db.callLog.findMany({
      where: { sourceId: source.id },
      select: { outcome: true, toolName: true },
    });
    expect(
      rows
        .filter((r) => !r.toolName.startsWith("tasks/"))
        .map((r) => [r.toolName, r.outcome])
        .sort(),
    ).toEqual([
      [names.quick_sum, "ok"],
      [names.slow_report, "ok"],
    ]);
    // Each poll is a row of its own beside them (on PostgreSQL the second instance logs its own, in its own time).
    if (!usePostgres)
      expect(rows.filter((r) => r.toolName === "tasks/result")).toEqual([{ toolName: "tasks/result", outcome: "ok" }]);
  }, 90_000);

  it("refuses another identity's, an altered, a forged and a deleted Source's task id, and a task of a Tool that forbids them", async () => {
    const { server, api, source, names } = await taskSource();
    const { token } = await agentFor([source.id]);
    const stranger = await agentFor([source.id]);
    const client = await client132(route.url, token);
    const created = await client.request(
      { method: "tools/call", params: { name: names.quick_sum, arguments: { hold: true }, task: {} } },
      CreateTaskResultSchema,
    );
    const handle = created.task.taskId;
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => ({ code: 0, message: "answered" }),
        (e: { code: number; message: string }) => e,
      );

    const theirs = await client132(route.url, stranger.token);
    for (const attempt of [
      theirs.experimental.tasks.getTask(handle),
      theirs.experimental.tasks.cancelTask(handle),
      client.experimental.tasks.getTask(`${handle.slice(0, -2)}${handle.endsWith("A") ? "B" : "A"}A`),
      client.experimental.tasks.getTask("qmt1.bm90LWEtaGFuZGxl"),
      client.experimental.tasks.getTask([...server.tasks.keys()][0] as string),
    ]) {
      const e = await refusal(attempt);
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(/TASK_HANDLE_INVALID/);
    }
    // Nothing reached the Source for any of them.
    expect(server.received.filter((r) => r.method.startsWith("tasks/"))).toEqual([]);

    // Forbidden: -32601, and no call reaches the Source.
    const before = server.received.length;
    const forbidden = await refusal(
      client.request(
        { method: "tools/call", params: { name: names.plain_echo, arguments: { topic: "x" }, task: {} } },
        CreateTaskResultSchema,
      ),
    );
    expect(forbidden.code).toBe(-32601);
    expect(forbidden.message).toMatch(/TASK_NOT_SUPPORTED/);
    expect(server.received.length).toBe(before);

    await api.sources.delete({ id: source.id });
    const gone = await refusal(client.experimental.tasks.getTask(handle));
    expect(gone.code).toBe(-32602);
    expect(gone.message).toMatch(/TASK_SOURCE_GONE/);
  }, 60_000);
});

describe("a Source's task that asks for input", () => {
  it("fails the agent's task with TASK_INPUT_UNSUPPORTED at both revisions, on every poll, without asking the Source for a result; tasks/cancel ends it there", async () => {
    const { server, source, names } = await taskSource();
    const { token } = await agentFor([source.id]);

    // 2025-11-25: tasks/get says failed and why; tasks/result is the error, and the Source is not asked for a result.
    const client = await client132(route.url, token);
    const created = await client.request(
      { method: "tools/call", params: { name: names.quick_sum, arguments: { ask: true }, task: {} } },
      CreateTaskResultSchema,
    );
    const handle = created.task.taskId;
    const got = await client.experimental.tasks.getTask(handle);
    expect(got.status).toBe("failed");
    expect(got.statusMessage).toMatch(/^TASK_INPUT_UNSUPPORTED: The Source's task of .* asks for input/);
    const result = await client.experimental.tasks.getTaskResult(handle, CallToolResultSchema).then(
      () => ({ code: 0, message: "answered" }),
      (e: { code: number; message: string }) => e,
    );
    expect(result.code).toBe(-32000);
    expect(result.message).toMatch(/TASK_INPUT_UNSUPPORTED/);
    expect(sourceTask(server, "tasks/result")).toEqual([]);
    expect((await client.experimental.tasks.cancelTask(handle)).status).toBe("cancelled");
    const onSource = [...server.tasks.values()][0];
    expect(onSource?.status).toBe("cancelled");

    // 2026-07-28: the task is failed with the error inlined, on each poll, until cancelled.
    const asked = (await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { ask: true } }))
      .result as Record<string, unknown>;
    for (let i = 0; i < 2; i++) {
      const task = (await rpc2026(route.url, token, "tasks/get", { taskId: asked.taskId as string })).result;
      expect(task).toMatchObject({ status: "failed", error: { code: -32000 } });
      expect((task as { error: { message: string } }).error.message).toMatch(/^TASK_INPUT_UNSUPPORTED: /);
    }
    expect(sourceTask(server, "tasks/result")).toEqual([]);
    await rpc2026(route.url, token, "tasks/cancel", { taskId: asked.taskId as string });
    expect([...server.tasks.values()].map((t) => t.status)).toEqual(["cancelled", "cancelled"]);
  }, 60_000);
});

describe("a Source's task that failed as a request", () => {
  it("is failed with the Source's JSON-RPC error at both revisions, not a completed task with an error result", async () => {
    const { source, names } = await taskSource();
    const { token } = await agentFor([source.id]);

    // 2026-07-28: failed, the error inlined (code and the Source's words), no result.
    const started = (
      await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { fail: true } })
    ).result as Record<string, unknown>;
    const task = (await rpc2026(route.url, token, "tasks/get", { taskId: started.taskId as string })).result;
    expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect((task as { error: { message: string } }).error.message).toMatch(/data store is down/);
    expect(task).not.toHaveProperty("result");

    // 2025-11-25: tasks/result is that JSON-RPC error.
    const client = await client132(route.url, token);
    const created = await client.request(
      { method: "tools/call", params: { name: names.quick_sum, arguments: { fail: true }, task: {} } },
      CreateTaskResultSchema,
    );
    const answer = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema).then(
      () => ({ code: 0, message: "answered" }),
      (e: { code: number; message: string }) => e,
    );
    expect(answer.code).toBe(-32603);
    expect(answer.message).toMatch(/data store is down/);
  }, 60_000);
});

describe("an approval's task keeps its result (2025-11-25)", () => {
  it("answers every later tasks/result with the result of the one run, on any instance, until it is too old or was too large to keep", async () => {
    const { server, api, source, names } = await taskSource();
    await api.sources.setCallPolicy({ sourceId: source.id, policy: "approve" });
    const { token, identity } = await agentFor([source.id]);
    const stranger = await agentFor([source.id]);
    // One call at once: the poll that runs the approved call takes no place of its own.
    await api.rateLimits.set({ subjectType: "identity", subjectId: identity.id, perMinute: null, concurrent: 1 });
    const approver = callerFor((await makeUser("approver")).actor);
    const client = await client132(route.url, token);
    const ran = () => server.received.filter((r) => r.method === "tools/call").length;
    const approvedTask = async (topic: string) => {
      const created = await client.request(
        { method: "tools/call", params: { name: names.quick_sum, arguments: { topic }, task: {} } },
        CreateTaskResultSchema,
      );
      const pending = (await approver.approvals.list()).pending.find((p) => p.toolName === names.quick_sum);
      await approver.approvals.decide({ id: pending?.id as string, decision: "approve" });
      return created.task.taskId;
    };
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => ({ code: 0, message: "answered" }),
        (e: { code: number; message: string }) => e,
      );

    const handle = await approvedTask("ledger");
    expect(ran()).toBe(0);
    const first = await client.experimental.tasks.getTaskResult(handle, CallToolResultSchema);
    expect(first.content).toEqual([{ type: "text", text: "quick_sum done: ledger" }]);
    // Asked again, here and on another instance: the same result, and the Source saw one call.
    const elsewhere = await client132(await secondUrl(), token);
    for (const poller of [client, elsewhere]) {
      const again = await poller.experimental.tasks.getTaskResult(handle, CallToolResultSchema);
      expect(again.content).toEqual(first.content);
      expect((await poller.experimental.tasks.getTask(handle)).status).toBe("completed");
    }
    expect(ran()).toBe(1);
    // Another identity's poll of the handle opens nothing and runs nothing.
    const theirs = await client132(route.url, stranger.token);
    const e = await refusal(theirs.experimental.tasks.getTaskResult(handle, CallToolResultSchema));
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/TASK_HANDLE_INVALID/);
    expect(ran()).toBe(1);
    // The result is sealed at rest, not stored as the Source sent it.
    const db = await getDb();
    const row = await db.parkedCall.findFirstOrThrow({
      where: { toolName: names.quick_sum, status: "ran" },
      select: { id: true, result: true },
    });
    expect(row.result).toBeTruthy();
    expect(row.result).not.toContain("ledger");

    // Past APPROVAL_RESULT_KEEP_SECONDS: TASK_RESULT_NOT_KEPT, still no second run; the sweeper drops it.
    const keep = LIMITS.APPROVAL_RESULT_KEEP_SECONDS.value;
    await db.parkedCall.update({ where: { id: row.id }, data: { ranAt: new Date(Date.now() - (keep + 5) * 1000) } });
    const old = await refusal(client.experimental.tasks.getTaskResult(handle, CallToolResultSchema));
    expect(old.code).toBe(-32602);
    expect(old.message).toMatch(/^MCP error -32602: TASK_RESULT_NOT_KEPT: .*APPROVAL_RESULT_KEEP_SECONDS/);
    expect((await sweepCallLog()).approvedResults).toBeGreaterThanOrEqual(1);
    expect((await db.parkedCall.findUniqueOrThrow({ where: { id: row.id } })).result).toBeNull();
    expect(ran()).toBe(1);

    // A result over APPROVAL_RESULT_BYTES is answered once; later polls are told why it is not kept.
    const bytes = LIMITS.APPROVAL_RESULT_BYTES as { value: number };
    const was = bytes.value;
    bytes.value = 16;
    try {
      const big = await approvedTask("a large ledger");
      const once = await client.experimental.tasks.getTaskResult(big, CallToolResultSchema);
      expect(once.content).toEqual([{ type: "text", text: "quick_sum done: a large ledger" }]);
      const later = await refusal(client.experimental.tasks.getTaskResult(big, CallToolResultSchema));
      expect(later.message).toMatch(/TASK_RESULT_NOT_KEPT: .*over the 16 bytes kept \(APPROVAL_RESULT_BYTES\)/);
      expect(ran()).toBe(2);
    } finally {
      bytes.value = was;
    }
  }, 90_000);
});

/** Minutes are whole minutes on the database's clock: start a test well inside one. */
async function freshMinute() {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ s: number }[]>`SELECT extract(second FROM now())::float AS s`;
  if ((row?.s ?? 0) > 45) await new Promise((resolve) => setTimeout(resolve, (61 - (row?.s ?? 0)) * 1000));
}

let rpcId = 0;
/** One 2026-07-28 request, with its envelope and headers, declaring the tasks extension unless told not to. */
async function rpc2026(url: string, token: string, method: string, params: Record<string, unknown>, extension = true) {
  const name = (params.name ?? params.taskId) as string | undefined;
  const response = await postMcp(
    url,
    token,
    {
      jsonrpc: "2.0",
      id: ++rpcId,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": extension ? { extensions: { [EXTENSION]: {} } } : {},
          "io.modelcontextprotocol/clientInfo": { name: "tasks-2026", version: "1" },
        },
      },
    },
    { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
  );
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe("tasks at 2026-07-28 (the io.modelcontextprotocol/tasks extension)", () => {
  it("answers a declaring client with a task, polled to its inlined result on another instance; cancels another; plain clients get the result", async () => {
    const { server, source, names } = await taskSource();
    const { token } = await agentFor([source.id]);
    const discover = await rpc2026(route.url, token, "server/discover", {});
    expect((discover.result?.capabilities as { extensions?: unknown } | undefined)?.extensions).toEqual({
      [EXTENSION]: {},
    });

    const created = (
      await rpc2026(route.url, token, "tools/call", { name: names.slow_report, arguments: { topic: "reefs" } })
    ).result as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const handle = created.taskId as string;
    expect(handle).toMatch(/^qmt1\./);
    const elsewhere = await secondUrl();
    let task: Record<string, unknown> = created;
    for (let i = 0; task.status === "working" && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      task = (await rpc2026(elsewhere, token, "tasks/get", { taskId: handle })).result as Record<string, unknown>;
    }
    expect(task).toMatchObject({
      resultType: "complete",
      taskId: handle,
      status: "completed",
      result: { content: [{ type: "text", text: "slow_report done: reefs" }] },
    });

    // The extension's cancellation is acknowledged even when the task ended already.
    expect((await rpc2026(elsewhere, token, "tasks/cancel", { taskId: handle })).result).toMatchObject({
      resultType: "complete",
    });
    // Without the extension: -32021 for the extension's methods, and a plain result for the call.
    const undeclared = await rpc2026(elsewhere, token, "tasks/get", { taskId: handle }, false);
    expect(undeclared.error?.code).toBe(-32021);
    const plain = await rpc2026(
      route.url,
      token,
      "tools/call",
      { name: names.slow_report, arguments: { topic: "kelp" } },
      false,
    );
    expect(plain.result).toMatchObject({ content: [{ type: "text", text: "slow_report done: kelp" }] });

    const held = (await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { hold: true } }))
      .result as Record<string, unknown>;
    expect(held.resultType).toBe("task");
    expect((await rpc2026(elsewhere, token, "tasks/cancel", { taskId: held.taskId as string })).result).toMatchObject({
      resultType: "complete",
    });
    // The Source was asked for both: the ended one (it refused; the agent was acknowledged) and this one.
    const onSource = sourceTask(server, "tasks/cancel");
    expect(onSource).toHaveLength(2);
    expect(server.tasks.get(onSource[1] as string)?.status).toBe("cancelled");
    // A Tool that forbids tasks is simply called: the server decides, and this one does not make a task.
    const echo = await rpc2026(route.url, token, "tools/call", { name: names.plain_echo, arguments: { topic: "x" } });
    expect(echo.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "plain_echo done: x" }],
    });
  }, 90_000);

  it("counts polls against the identity's calls a minute (refused past it, nothing reaching the Source) and logs each as its method beside the task's Source and Tool", async () => {
    const { server, source, names } = await taskSource();
    const { token, identity } = await agentFor([source.id]);
    const stranger = await agentFor([source.id]);
    const operator = callerFor((await makeUser("operator")).actor);
    // Calls at once 1 as well: a poll takes no place at once, so polls never crowd out calls.
    await operator.rateLimits.set({ subjectType: "identity", subjectId: identity.id, perMinute: 4, concurrent: 1 });
    await freshMinute();

    const held = (await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { hold: true } }))
      .result as Record<string, unknown>;
    const handle = held.taskId as string;
    for (let i = 0; i < 2; i++)
      expect((await rpc2026(route.url, token, "tasks/get", { taskId: handle })).result).toMatchObject({
        status: "working",
      });
    // A tampered handle is refused, and counts: probing costs the prober.
    const tampered = await rpc2026(route.url, token, "tasks/get", { taskId: `${handle.slice(0, -3)}AAA` });
    expect(tampered.error?.message).toMatch(/TASK_HANDLE_INVALID/);
    const over = await rpc2026(route.url, token, "tasks/get", { taskId: handle });
    expect(over.error?.code).toBe(-32000);
    expect(over.error?.message).toMatch(/^RATE_LIMITED: This Agent Identity may start at most 4 /);
    const cancel = await rpc2026(route.url, token, "tasks/cancel", { taskId: handle });
    expect(cancel.error?.message).toMatch(/^RATE_LIMITED/);
    expect(sourceTask(server, "tasks/get")).toHaveLength(2);
    expect(sourceTask(server, "tasks/cancel")).toHaveLength(0);
    // Another identity's poll is refused under its own name, and not counted against this one.
    const theirs = await rpc2026(route.url, stranger.token, "tasks/get", { taskId: handle });
    expect(theirs.error?.message).toMatch(/TASK_HANDLE_INVALID/);

    await flushCallLog();
    const db = await getDb();
    const rows = await db.callLog.findMany({
      where: { identityId: { in: [identity.id, stranger.identity.id] } },
      orderBy: { startedAt: "asc" },
      select: {
        identityId: true,
        toolName: true,
        nativeName: true,
        sourceName: true,
        outcome: true,
        failureCode: true,
        arguments: true,
      },
    });
    const mine = rows.filter((r) => r.identityId === identity.id);
    expect(mine.map((r) => [r.toolName, r.nativeName, r.outcome, r.failureCode])).toEqual([
      [names.quick_sum, "quick_sum", "ok", null],
      ["tasks/get", names.quick_sum, "ok", null],
      ["tasks/get", names.quick_sum, "ok", null],
      ["tasks/get", null, "failed", "TASK_HANDLE_INVALID"],
      ["tasks/get", null, "failed", "RATE_LIMITED"],
      ["tasks/cancel", null, "failed", "RATE_LIMITED"],
    ]);
    expect(mine[1]?.sourceName).toBe(source.name);
    expect(rows.filter((r) => r.identityId === stranger.identity.id).map((r) => [r.toolName, r.failureCode])).toEqual([
      ["tasks/get", "TASK_HANDLE_INVALID"],
    ]);
  }, 90_000);

  it("makes a call parked for approval a task: approved, it runs once and the task's result is the call's; denied, APPROVAL_DENIED with the reason", async () => {
    const { server, api, source, names } = await taskSource();
    await api.sources.setCallPolicy({ sourceId: source.id, policy: "approve" });
    const { token } = await agentFor([source.id]);
    const approver = callerFor((await makeUser("approver")).actor);

    const parked = (
      await rpc2026(route.url, token, "tools/call", { name: names.plain_echo, arguments: { topic: "vault" } })
    ).result as Record<string, unknown>;
    expect(parked).toMatchObject({ resultType: "task", status: "working" });
    expect(parked.statusMessage).toMatch(/approver/);
    const waiting = (await rpc2026(route.url, token, "tasks/get", { taskId: parked.taskId as string })).result;
    expect(waiting).toMatchObject({ status: "working" });
    expect(server.received.filter((r) => r.method === "tools/call")).toEqual([]);

    const { pending } = await approver.approvals.list();
    const approval = pending.find((p) => p.toolName === names.plain_echo);
    await approver.approvals.decide({ id: approval?.id as string, decision: "approve" });
    const done = (await rpc2026(await secondUrl(), token, "tasks/get", { taskId: parked.taskId as string })).result;
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "plain_echo done: vault" }] },
    });
    // Once: another poll does not run it again.
    await rpc2026(route.url, token, "tasks/get", { taskId: parked.taskId as string });
    expect(server.received.filter((r) => r.method === "tools/call")).toHaveLength(1);

    const second = (
      await rpc2026(route.url, token, "tools/call", { name: names.plain_echo, arguments: { topic: "keys" } })
    ).result as Record<string, unknown>;
    const next = (await approver.approvals.list()).pending.find((p) => p.toolName === names.plain_echo);
    await approver.approvals.decide({ id: next?.id as string, decision: "deny", reason: "not on a Friday" });
    const denied = (await rpc2026(route.url, token, "tasks/get", { taskId: second.taskId as string })).result as {
      status: string;
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(denied.status).toBe("completed");
    expect(denied.result.isError).toBe(true);
    expect(denied.result.content[0]?.text).toMatch(/^APPROVAL_DENIED: .*not on a Friday/);
    expect(server.received.filter((r) => r.method === "tools/call")).toHaveLength(1);

    // Approved, then the Tool's definition changed before the task ran it: not what the approver saw.
    const third = (
      await rpc2026(route.url, token, "tools/call", { name: names.plain_echo, arguments: { topic: "gate" } })
    ).result as Record<string, unknown>;
    const thirdApproval = (await approver.approvals.list()).pending.find((p) => p.toolName === names.plain_echo);
    await approver.approvals.decide({ id: thirdApproval?.id as string, decision: "approve" });
    const echo = TASK_TOOLS.find((t) => t.name === "plain_echo") as { description: string };
    const description = echo.description;
    echo.description = "Echoes a topic back, and now also posts it.";
    try {
      expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
      const changed = (await rpc2026(route.url, token, "tasks/get", { taskId: third.taskId as string })).result as {
        status: string;
        result: { isError: boolean; content: { text: string }[] };
      };
      expect(changed.status).toBe("completed");
      expect(changed.result.content[0]?.text).toMatch(/^APPROVAL_PENDING: /);
      expect(server.received.filter((r) => r.method === "tools/call")).toHaveLength(1);
    } finally {
      echo.description = description;
    }
  }, 90_000);
});

describe("tasks on a Source that speaks only 2026-07-28 (its tasks extension; decision 0100)", () => {
  const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  const declared = (params: Record<string, unknown>) =>
    (params._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.[CAPABILITIES]?.extensions;

  it("runs a task-required Tool as a task on the Source through /mcp at both revisions, polled on another instance to its result; another task is cancelled there", async () => {
    const { server, source, names } = await sourceOn(await startModernTaskServer());
    const db = await getDb();
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).protocolVersion).toBe("2026-07-28");
    const { token } = await agentFor([source.id]);

    // A 2026-07-28 agent: the call declares the extension to the Source, which answers a task.
    const created = (
      await rpc2026(route.url, token, "tools/call", { name: names.slow_report, arguments: { topic: "tides" } })
    ).result as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const handle = created.taskId as string;
    expect(handle).toMatch(/^qmt1\./);
    const [call] = server.received.filter((r) => r.method === "tools/call");
    expect(declared(call?.params ?? {})).toEqual({ [EXTENSION]: {} });
    expect(call?.params).not.toHaveProperty("task");
    const own = [...server.tasks.keys()][0] as string;
    expect(handle).not.toContain(own);

    const elsewhere = await secondUrl();
    let task: Record<string, unknown> = created;
    for (let i = 0; task.status === "working" && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      task = (await rpc2026(elsewhere, token, "tasks/get", { taskId: handle })).result as Record<string, unknown>;
    }
    expect(task).toMatchObject({
      taskId: handle,
      status: "completed",
      result: { content: [{ type: "text", text: "slow_report done: tides" }] },
    });
    // Asked in the extension's words: tasks/get for its own id, named in Mcp-Name, declaring it; never tasks/result.
    expect(sourceTask(server, "tasks/get")).toContain(own);
    expect(sourceTask(server, "tasks/result")).toEqual([]);
    const polls = server.received.flatMap((r, i) => (r.method === "tasks/get" ? [i] : []));
    for (const i of polls) {
      expect(server.headers[i]?.["mcp-name"]).toBe(own);
      expect(declared(server.received[i]?.params ?? {})).toEqual({ [EXTENSION]: {} });
    }

    // A 2025-11-25 agent (SDK 1.32): its task-augmented call is a task on the Source too, its tasks/result the result.
    const client = await client132(route.url, token);
    const created2025 = await client.request(
      {
        method: "tools/call",
        params: { name: names.slow_report, arguments: { topic: "reefs" }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    expect(created2025.task.taskId).toMatch(/^qmt1\./);
    const other = await client132(elsewhere, token);
    const result = await other.experimental.tasks.getTaskResult(created2025.task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "slow_report done: reefs" }]);
    // A plain call of it (no task taken): Quartermaster runs the task and answers its result.
    const plain = await client.callTool({ name: names.slow_report as string, arguments: { topic: "kelp" } });
    expect(plain.content).toEqual([{ type: "text", text: "slow_report done: kelp" }]);
    expect(server.tasks.size).toBe(3);

    // Cancelled through the other instance: the Source is told, with its own id, and its task ends cancelled.
    const held = (await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { hold: true } }))
      .result as Record<string, unknown>;
    expect(held.resultType).toBe("task");
    const heldOnSource = [...server.tasks.values()].find((t) => t.status === "working");
    expect((await rpc2026(elsewhere, token, "tasks/cancel", { taskId: held.taskId as string })).result).toMatchObject({
      resultType: "complete",
    });
    expect(sourceTask(server, "tasks/cancel")).toEqual([heldOnSource?.taskId]);
    expect(heldOnSource?.status).toBe("cancelled");
    const after = (await rpc2026(route.url, token, "tasks/get", { taskId: held.taskId as string })).result;
    expect(after).toMatchObject({ status: "cancelled" });
    // A 2025 agent's cancel reaches it too.
    const held2025 = await client.request(
      { method: "tools/call", params: { name: names.quick_sum, arguments: { hold: true }, task: {} } },
      CreateTaskResultSchema,
    );
    expect((await other.experimental.tasks.cancelTask(held2025.task.taskId)).status).toBe("cancelled");
    expect(sourceTask(server, "tasks/cancel")).toHaveLength(2);
    // A Tool the Source runs at once is answered at once, whatever the agent takes.
    const echo = await rpc2026(route.url, token, "tools/call", { name: names.plain_echo, arguments: { topic: "x" } });
    expect(echo.result).toMatchObject({ content: [{ type: "text", text: "plain_echo done: x" }] });
  }, 90_000);

  it("refuses a tampered handle and another identity's before the Source is asked; a failed task's error reaches the agent", async () => {
    const { server, source, names } = await sourceOn<ModernTaskServer>(await startModernTaskServer({ finishMs: 100 }));
    const { token } = await agentFor([source.id]);
    const stranger = await agentFor([source.id]);
    const held = (await rpc2026(route.url, token, "tools/call", { name: names.quick_sum, arguments: { hold: true } }))
      .result as Record<string, unknown>;
    const handle = held.taskId as string;
    const tampered = `${handle.slice(0, -2)}${handle.endsWith("A") ? "B" : "A"}A`;
    for (const [who, method, taskId] of [
      [stranger.token, "tasks/get", handle],
      [stranger.token, "tasks/cancel", handle],
      [token, "tasks/get", tampered],
      [token, "tasks/cancel", tampered],
      [token, "tasks/get", [...server.tasks.keys()][0] as string],
    ] as const) {
      const answer = await rpc2026(route.url, who, method, { taskId });
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(/TASK_HANDLE_INVALID/);
    }
    expect(server.received.filter((r) => r.method.startsWith("tasks/"))).toEqual([]);
    expect([...server.tasks.values()][0]?.status).toBe("working");

    // A task that fails on the Source with a JSON-RPC error: failed, the error passed on.
    const failing = (
      await rpc2026(route.url, token, "tools/call", { name: names.slow_report, arguments: { fail: true } })
    ).result as Record<string, unknown>;
    let task: Record<string, unknown> = failing;
    for (let i = 0; task.status === "working" && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      task = (await rpc2026(route.url, token, "tasks/get", { taskId: failing.taskId as string })).result as Record<
        string,
        unknown
      >;
    }
    expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect((task.error as { message: string }).message).toMatch(/archive is unreachable/);
    // Called plainly, the same failure is the Tool Call's error.
    const client = await client132(route.url, token);
    const plain = await client.callTool({ name: names.slow_report as string, arguments: { fail: true } });
    expect(plain.isError).toBe(true);
    expect(JSON.stringify(plain.content)).toMatch(/archive is unreachable/);
  }, 60_000);
});
