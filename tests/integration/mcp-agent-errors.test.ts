/**
 * Errors an agent meets on catalog Tools, as a model reads them: arguments checked against
 * the Tool's input schema before anything is forwarded, a Tool the identity lost explained
 * with why and when, a failing Source named, one "MCP error" prefix at most; and Tools that
 * only run as tasks offered and run as tasks on their Source (the demo's simulate-research-query).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ProtocolError } from "@modelcontextprotocol/server";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { callRemoteTool } from "@/server/domain/agent-tools/remote-call";
import { runRemoteTask } from "@/server/domain/agent-tools/remote-task";
import { AS_SENT, type CatalogTransport } from "@/server/domain/catalog/catalog-transport";
import { TASK_REQUIRED_REASON } from "@/server/domain/catalog/compatibility";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { simpleTool, startSdkServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const route = mcpRoute();
const closers = route.closers;
let demo: DemoMcpServer | undefined;
afterAll(async () => {
  await demo?.stop();
});

const calls: { name: string; args: Record<string, unknown> }[] = [];
async function source(catalog: () => ToolDef[], onCall?: (name: string) => CallToolResult) {
  const server = await startSdkServer({
    catalog,
    onCall: (name, args) => {
      calls.push({ name, args });
      return onCall ? onCall(name) : { content: [{ type: "text", text: `ok ${name}` }] };
    },
  });
  closers.push(server.close);
  const { api, source } = await connectionTo(server.url);
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return { api, source, server };
}

/** An identity holding the given Sources, and an SDK Client on /mcp with its token. */
async function agentWithClient(sourceIds: string[]) {
  const { api, identity, token } = await agentFor(sourceIds);
  return { api, identity, client: await route.connect(token, "errors") };
}
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("catalog Tool calls at /mcp", () => {
  it("check arguments against the Tool's input schema before forwarding: INVALID_ARGUMENTS names the argument and the rule", async () => {
    const tools: ToolDef[] = [
      simpleTool("lookup"),
      simpleTool("typed", {
        inputSchema: {
          type: "object",
          properties: {
            count: { type: "integer", minimum: 1 },
            when: { type: "string", format: "date-time" },
            mode: { enum: ["fast", "slow"] },
          },
          required: ["count"],
          additionalProperties: false,
        },
      }),
    ];
    const a = await source(() => tools);
    const { client } = await agentWithClient([a.source.id]);
    const before = calls.length;
    for (const [name, args, message] of [
      [
        "lookup",
        {},
        /^INVALID_ARGUMENTS: query is required\. Correct the arguments and call again; tools\/list \(or find_tools\)/,
      ],
      ["lookup", { query: 5 }, /^INVALID_ARGUMENTS: query: must be string\. /],
      ["typed", { count: 0 }, /^INVALID_ARGUMENTS: count: must be >= 1\. /],
      [
        "typed",
        { count: 1, when: "soon" },
        /when: must be a date and time in ISO 8601 form, e.g. 2026-05-04T09:30:00Z/,
      ],
      ["typed", { count: 1, mode: "medium" }, /mode: must be one of \["fast","slow"\]/],
      ["typed", { count: 1, extra: true }, /extra: is not an argument of this Tool/],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(text(result), JSON.stringify(args)).toMatch(message);
      expect(result.structuredContent).toMatchObject({ error: { code: "INVALID_ARGUMENTS" } });
    }
    expect(calls.length).toBe(before); // nothing reached the Source
    const fine = (await client.callTool({ name: "typed", arguments: { count: 2, mode: "fast" } })) as CallToolResult;
    expect(fine.isError).toBeFalsy();
    expect(calls.at(-1)).toEqual({ name: "typed", args: { count: 2, mode: "fast" } });
  });

  it("explain a call to a Tool the identity no longer holds: unassigned or removed by a check, with when", async () => {
    let catalog = [simpleTool("keep"), simpleTool("dropped")];
    const a = await source(() => catalog);
    const b = await source(() => [simpleTool("elsewhere_tool")]);
    const { api, identity, client } = await agentWithClient([a.source.id, b.source.id]);

    catalog = [simpleTool("keep")];
    expect((await api.sources.checkNow({ id: a.source.id })).status).toBe("succeeded");
    const removed = (await client.callTool({ name: "dropped", arguments: { query: "q" } })) as CallToolResult;
    expect(removed.isError).toBe(true);
    expect(text(removed)).toMatch(
      /^TOOL_NOT_HELD: This Agent Identity no longer holds "dropped": removed from its Source's catalog — Source ".*", \d{4}-\d\d-\d\dT/,
    );
    expect(removed.structuredContent).toMatchObject({ error: { code: "TOOL_NOT_HELD", reason: "removed" } });

    await api.identities.unassignSource({ identityId: identity.id, sourceId: b.source.id });
    const unassigned = (await client.callTool({ name: "elsewhere_tool", arguments: { query: "q" } })) as CallToolResult;
    expect(text(unassigned)).toMatch(/^TOOL_NOT_HELD: .*its Source was unassigned/);
    expect(unassigned.structuredContent).toMatchObject({ error: { reason: "source_unassigned" } });

    // A name the identity never held stays unknown (a protocol error, as before).
    await expect(client.callTool({ name: "never_heard_of", arguments: {} })).rejects.toThrow(/No Tool named/);
  });

  it("name a failing Source in a failed call, and state a Source's JSON-RPC error once, without doubled MCP error prefixes", async () => {
    const a = await source(
      () => [simpleTool("refuses"), simpleTool("down")],
      (name) => {
        if (name === "refuses") throw new ProtocolError(-32602, "MCP error -32602: the ledger is closed");
        return { content: [{ type: "text", text: "ok" }] };
      },
    );
    const { api, client } = await agentWithClient([a.source.id]);
    const refused = (await client.callTool({ name: "refuses", arguments: { query: "q" } })) as CallToolResult;
    expect(text(refused)).toBe(
      "SOURCE_CALL_ERROR: The Source refused the call (JSON-RPC -32602): the ledger is closed",
    );

    await a.server.close();
    expect((await api.sources.checkNow({ id: a.source.id })).status).toBe("failed");
    const down = (await client.callTool({ name: "down", arguments: { query: "q" } })) as CallToolResult;
    // A time a person and a model can read, and what the agent can do next; no raw timestamp.
    expect(text(down)).toMatch(
      /^SOURCE_UNREACHABLE: .* Its Source ".*" has failed its catalog checks since \d{4}-\d\d-\d\d \d\d:\d\d UTC \((\d+ seconds? ago|just now)\) \(CATALOG_[A-Z_]+\)\. Use another Tool for now, or retry this one after its next check, due (now|\d{4}-.* UTC \(in .*\))\.$/,
    );
    expect(text(down)).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});

describe("Tools that only run as tasks", () => {
  it("that run only as tasks are offered and run as tasks on their Source: the demo's simulate-research-query", async () => {
    demo = await startEverythingServer();
    const { api, source } = await connectionTo(demo.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const db = await getDb();
    const stored = await db.tool.findFirstOrThrow({
      where: { sourceId: source.id, nativeName: "simulate-research-query" },
    });
    expect(stored).toMatchObject({ compatibility: "compatible" });
    const definition = JSON.parse(
      (await db.toolDefinition.findUniqueOrThrow({ where: { hash: stored.definitionHash } })).definition,
    );
    expect(definition.execution).toEqual({ taskSupport: "required" });
    const { client } = await agentWithClient([source.id]);
    const name = stored.modelFacingName as string;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain(name);
    // A plain tools/call from the agent; Quartermaster starts the task, polls it and answers its result.
    const result = (await client.callTool({ name, arguments: { topic: "tide tables" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/Research Report: tide tables/);

    // A row judged Task required before is judged again by the next check (the migration
    // forgot its Source's fingerprint), and is offered under a name.
    await db.tool.update({
      where: { id: stored.id },
      data: { compatibility: "task_required", compatibilityReason: TASK_REQUIRED_REASON, modelFacingName: null },
    });
    const dir = path.join(import.meta.dirname, "../../prisma/migrations");
    const folder = readdirSync(dir).find((d) => d.endsWith("_task_required_callable")) as string;
    await db.$executeRawUnsafe(
      readFileSync(path.join(dir, folder, "migration.sql"), "utf8").replace(/^\s*--.*$/gm, ""),
    );
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).catalogFingerprint).toBeNull();
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const again = await db.tool.findUniqueOrThrow({ where: { id: stored.id } });
    expect(again).toMatchObject({ compatibility: "compatible", compatibilityReason: null });
    expect(again.modelFacingName).toBeTruthy();
    expect(
      await db.catalogChange.count({
        where: { sourceId: source.id, nativeName: "simulate-research-query", kind: "became_compatible" },
      }),
    ).toBe(1);
  });

  it("that run only as tasks end with TOOL_CALL_TIMEOUT past the Tool Call time limit, and their task is cancelled on the Source", async () => {
    demo ??= await startEverythingServer();
    const sourceId = `task-timeout-${Date.now()}`;
    const started = Date.now();
    const failure = await callRemoteTool({
      sourceId,
      url: demo.url,
      headers: {},
      allowLinkLocal: false,
      nativeName: "simulate-research-query",
      arguments: { topic: "slow" },
      timeoutMs: 1500,
      asTask: true,
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "TOOL_CALL_TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(5000);

    // The same run on a client of the test's own, to see what was sent and what the Source says after.
    const client = new Client({ name: "task-probe", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL((demo as DemoMcpServer).url)));
    closers.push(() => client.close());
    const sent: { method: string; params?: { taskId?: string } }[] = [];
    const request = client.request.bind(client);
    client.request = ((message: { method: string; params?: { taskId?: string } }, ...rest: never[]) => {
      sent.push(message);
      return request(message as never, ...rest);
    }) as typeof client.request;
    const noRaw = { rawResult: () => undefined } as unknown as CatalogTransport;
    await expect(
      runRemoteTask(
        client,
        noRaw,
        { nativeName: "simulate-research-query", arguments: { topic: "slow" } },
        { deadline: Date.now() + 1500 },
      ),
    ).rejects.toThrow();
    await expect.poll(() => sent.map((m) => m.method)).toContain("tasks/cancel");
    const taskId = sent.find((m) => m.method === "tasks/cancel")?.params?.taskId as string;
    const state = (await request({ method: "tasks/get", params: { taskId } } as never, AS_SENT)) as { status: string };
    expect(state.status).toBe("cancelled");
  });

  it("already in the catalog are re-judged by the data migration, leaving a loss each identity sees", async () => {
    const a = await source(() => [
      simpleTool("plain"),
      simpleTool("task_only", { execution: { taskSupport: "required" } }),
    ]);
    const db = await getDb();
    const stored = await db.tool.findFirstOrThrow({ where: { sourceId: a.source.id, nativeName: "task_only" } });
    // The definition as a 2025-11-25 Source publishes it (2026-07-28 moved tasks out of the Tool).
    const definition = JSON.parse(
      (await db.toolDefinition.findUniqueOrThrow({ where: { hash: stored.definitionHash } })).definition,
    );
    await db.toolDefinition.update({
      where: { hash: stored.definitionHash },
      data: { definition: JSON.stringify({ ...definition, execution: { taskSupport: "required" } }) },
    });
    // As it was before the state existed: Compatible, named, counted.
    await db.tool.update({
      where: { id: stored.id },
      data: { compatibility: "compatible", compatibilityReason: null, modelFacingName: `old_task_${Date.now()}` },
    });
    const dir = path.join(import.meta.dirname, "../../prisma/migrations");
    const folder = readdirSync(dir).find((d) => d.endsWith("_task_required_tools")) as string;
    const sql = readFileSync(path.join(dir, folder, "migration.sql"), "utf8");
    for (const statement of sql
      .split(/;\s*$/m)
      .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
      .filter(Boolean))
      await db.$executeRawUnsafe(statement);
    const after = await db.tool.findUniqueOrThrow({ where: { id: stored.id } });
    expect(after).toMatchObject({
      compatibility: "task_required",
      modelFacingName: null,
      compatibilityReason: TASK_REQUIRED_REASON,
    });
    const change = await db.catalogChange.findFirst({
      where: { sourceId: a.source.id, nativeName: "task_only", kind: "became_incompatible" },
    });
    expect(change?.detail).toBe("task_required");
    const totals = await db.source.findUniqueOrThrow({ where: { id: a.source.id } });
    expect(totals.compatibleToolCount).toBe(1);
  });
});
