/**
 * A Tool error, built-in or catalog Tool, reaches the agent in one shape over real /mcp
 * HTTP — `isError`, the text `CODE: message`, and `structuredContent.error { code, message,
 * … }` — and the call log and the metrics record it with its code. The SDK's own Clients
 * read it: the current one and the 1.x one, which checks structured content against the
 * tool's output schema even on an error.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { createToken } from "@/server/domain/identities/tokens";
import { LIMITS } from "@/server/limits";
import { metrics } from "@/server/observability/metrics";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { makeAgent, makeScope } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

const auth = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

async function connect(token: string) {
  const client = await mcp.connect(token, "errors-agent");
  // The SDK checks structured content against each tool's output schema once it has listed them.
  await client.listTools();
  return client;
}

async function connectV1(token: string) {
  const client = new ClientV1({ name: "errors-agent-1x", version: "1" });
  await client.connect(new TransportV1(new URL(mcp.url), auth(token)));
  closers.push(() => client.close());
  await client.listTools();
  return client;
}

const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: unknown } | undefined)?.error;

const counted = (series: string) => {
  const line = metrics.toolCalls.render().find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(" ")[1]) : 0;
};

async function rowsOf(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  return db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } });
}

describe("a Tool error", () => {
  it("from a built-in reaches the agent with structuredContent.error, and the call log and metrics keep its code", async () => {
    const mine = await makeScope();
    const theirs = await makeScope();
    const agent = await makeAgent({ [mine.id]: "write" });
    const { value: token } = await createToken(SYSTEM, { identityId: agent.identityId, name: "mcp" });
    const series = 'qm_tool_calls_total{code="SCOPE_ACCESS_DENIED",kind="built_in",outcome="failed"}';
    const before = counted(series);

    const client = await connect(token);
    const refused = (await client.callTool({
      name: "search",
      arguments: { query: "plans", scope: theirs.name },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/^SCOPE_ACCESS_DENIED: /);
    expect(errorOf(refused)).toMatchObject({
      code: "SCOPE_ACCESS_DENIED",
      message: expect.stringContaining("no read grant"),
    });
    // A limit's refusal carries the limit and the measured size, as a catalog Tool's does.
    const body = "x".repeat(LIMITS.MEMORY_BODY_BYTES.value + 1);
    const large = (await client.callTool({ name: "remember", arguments: { body } })) as CallToolResult;
    expect(errorOf(large)).toMatchObject({
      code: "MEMORY_TOO_LARGE",
      measured: LIMITS.MEMORY_BODY_BYTES.value + 1,
      limit: LIMITS.MEMORY_BODY_BYTES.value,
    });
    const invalid = (await client.callTool({ name: "search", arguments: { query: 7 } })) as CallToolResult;
    expect(errorOf(invalid)).toMatchObject({ code: "INVALID_ARGUMENTS", message: /query/ });
    // A 1.x client checks an error's structured content against the output schema too.
    const v1 = await connectV1(token);
    const refusedV1 = await v1.callTool({ name: "search", arguments: { query: "plans", scope: theirs.name } });
    expect(refusedV1.structuredContent).toMatchObject({ error: { code: "SCOPE_ACCESS_DENIED" } });
    expect((await v1.callTool({ name: "search", arguments: { query: "plans" } })).isError).toBeFalsy();

    const rows = await rowsOf(agent.identityId);
    expect(rows.map((r) => [r.toolName, r.builtIn, r.outcome, r.failureCode])).toEqual([
      ["search", true, "failed", "SCOPE_ACCESS_DENIED"],
      ["remember", true, "failed", "MEMORY_TOO_LARGE"],
      ["search", true, "failed", "INVALID_ARGUMENTS"],
      ["search", true, "failed", "SCOPE_ACCESS_DENIED"],
      ["search", true, "ok", null],
    ]);
    expect(counted(series) - before).toBe(2);
  });

  it("from a catalog Tool reaches the agent in the same shape, and a Source's own isError stays the Tool's", async () => {
    const server = await startSdkServer({
      catalog: () => ["flood", "refuse"].map((n) => simpleTool(n, { inputSchema: { type: "object" } })),
      onCall: (name) =>
        name === "flood"
          ? { content: Array.from({ length: 40 }, (_, i) => ({ type: "text", text: `${i}` })) }
          : { content: [{ type: "text", text: "no such customer" }], isError: true },
    });
    closers.push(server.close);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const { identity } = await (async () => {
      const made = await api.identities.create({ name: `errors-${Date.now()}` });
      await api.identities.assignSource({ identityId: made.id, sourceId: source.id });
      return { identity: made };
    })();
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "t" });
    const client = await connect(token);

    const flood = (await client.callTool({ name: "flood", arguments: {} })) as CallToolResult;
    expect(flood.isError).toBe(true);
    expect((flood.content[0] as { text: string }).text).toMatch(/^TOOL_RESULT_TOO_MANY_TEXT_BLOCKS: /);
    expect(errorOf(flood)).toMatchObject({
      code: "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS",
      message: expect.any(String),
      measured: 40,
    });
    const refuse = (await client.callTool({ name: "refuse", arguments: {} })) as CallToolResult;
    expect(refuse).toMatchObject({ isError: true, content: [{ text: "no such customer" }] });
    expect(refuse.structuredContent).toBeUndefined();

    expect((await rowsOf(identity.id)).map((r) => [r.toolName, r.outcome, r.failureCode])).toEqual([
      ["flood", "failed", "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS"],
      ["refuse", "is_error", null],
    ]);
  });

  it("from a catalog Tool with its own output schema reaches a 1.x client, which checks errors against that schema", async () => {
    // The Source's own shape, listed as published: closed, with a member an error never has.
    const outputSchema = {
      type: "object",
      properties: { total: { type: "number" } },
      required: ["total"],
      additionalProperties: false,
    };
    const server = await startSdkServer({
      catalog: () => ["tally", "overflow"].map((n) => simpleTool(n, { inputSchema: { type: "object" }, outputSchema })),
      onCall: (name) =>
        name === "overflow"
          ? {
              content: Array.from({ length: 40 }, (_, i) => ({ type: "text", text: `${i}` })),
              structuredContent: { total: 40 },
            }
          : { content: [{ type: "text", text: '{"total":3}' }], structuredContent: { total: 3 } },
    });
    closers.push(server.close);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const made = await api.identities.create({ name: `errors-schema-${Date.now()}` });
    await api.identities.assignSource({ identityId: made.id, sourceId: source.id });
    const { value: token } = await api.identities.createToken({ identityId: made.id, name: "t" });

    for (const client of [await connect(token), await connectV1(token)]) {
      // Called directly, the failure is in its text: the client would refuse `{ error }` under this schema.
      const flood = (await client.callTool({ name: "overflow", arguments: {} })) as CallToolResult;
      expect(flood.isError).toBe(true);
      expect((flood.content[0] as { text: string }).text).toMatch(/^TOOL_RESULT_TOO_MANY_TEXT_BLOCKS: /);
      expect(flood.structuredContent).toBeUndefined();
      // Through call_tool (no output schema of its own) it carries structuredContent.error as ever.
      const forwarded = (await client.callTool({
        name: "call_tool",
        arguments: { name: "overflow", arguments: {} },
      })) as CallToolResult;
      expect(errorOf(forwarded)).toMatchObject({ code: "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS", measured: 40 });
      expect((await client.callTool({ name: "tally", arguments: {} })).structuredContent).toEqual({ total: 3 });
    }
    // The call log keeps the code either way: the outcome travels beside the result.
    expect((await rowsOf(made.id)).map((r) => [r.toolName, r.outcome, r.failureCode])).toEqual(
      Array(2)
        .fill([
          ["overflow", "failed", "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS"],
          ["overflow", "failed", "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS"],
          ["tally", "ok", null],
        ])
        .flat(),
    );
  });
});
