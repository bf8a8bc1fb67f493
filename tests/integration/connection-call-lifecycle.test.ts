/**
 * A call to an MCP Connection's Tool past the happy path (issue 32, item 4): an agent's
 * notifications/cancelled, sent as a POST of its own (a stateless 2025-era client's way),
 * reaches the Source's in-flight request — from the same identity and token only, through
 * the database on any instance — and the call's deadline answers TOOL_CALL_TIMEOUT before a
 * real MCP client's default 60 s request timeout. The Source is a real SDK server over HTTP.
 */
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { LIMITS } from "@/server/limits";
import { connectionTo, operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { startOtherInstance } from "../helpers/instance-process";
import { closeWithConnections, listenOnLoopback } from "../helpers/loopback";
import { postMcp } from "../helpers/mcp-rpc";
import { sendFetchResponse, toFetchRequest } from "../helpers/mcp-servers";
import { type ProductServer, startProduct } from "../helpers/product-server";
import { usePostgres } from "../helpers/template";

const database = withTestDatabase();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

let product: ProductServer | undefined;
async function productUrl() {
  if (!product) {
    product = await startProduct();
    closers.push(() => (product as ProductServer).close());
  }
  return product.url;
}

/**
 * A Source whose one Tool runs until its request is cancelled (or `stallMs` pass), remembering
 * when: by a notifications/cancelled it can route, or by its caller closing the request (a
 * 2026-07-28 client's cancellation), which this server hears from the connection itself.
 */
async function stallingSource(name: string, stallMs = 120_000) {
  const seen: { startedAt?: number; abortedAt?: number } = {};
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const mcp = new Server({ name: "stalling", version: "1" }, { capabilities: { tools: {} } });
      mcp.setRequestHandler("tools/list", async () => ({
        tools: [{ name, description: "Runs until cancelled.", inputSchema: { type: "object" } }],
      }));
      mcp.setRequestHandler("tools/call", async (_request, ctx) => {
        seen.startedAt = Date.now();
        const cancelled = requestInfo?.signal
          ? AbortSignal.any([ctx.mcpReq.signal, requestInfo.signal])
          : ctx.mcpReq.signal;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, stallMs);
          cancelled.addEventListener("abort", () => {
            seen.abortedAt = Date.now();
            clearTimeout(timer);
            resolve();
          });
        });
        return { content: [{ type: "text", text: "finished" }] } satisfies CallToolResult;
      });
      return mcp;
    },
    { legacy: "stateless" },
  );
  const { server, origin } = await listenOnLoopback(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const hungUp = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) hungUp.abort();
    });
    const request = new Request(await toFetchRequest(req), { signal: hungUp.signal });
    await sendFetchResponse(res, await handler.fetch(request)).catch(() => {});
  });
  closers.push(async () => {
    await handler.close();
    await closeWithConnections(server)();
  });
  const { api, source } = await connectionTo(`${origin}/mcp`);
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return { source, seen };
}

let n = 0;
async function agentFor(sourceId: string) {
  const api = await operator();
  const identity = await api.identities.create({ name: `conn-life-agent-${++n}` });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "test" });
  return { identityId: identity.id, token };
}

const LEGACY = { "mcp-protocol-version": "2025-11-25" };
function postCall(mcpUrl: string, token: string, id: number | string, name: string) {
  return fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...LEGACY,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } }),
  });
}
const postCancel = (mcpUrl: string, token: string, requestId: number | string) =>
  postMcp(
    mcpUrl,
    token,
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the user gave up" } },
    LEGACY,
  );
const errorCode = (result: CallToolResult) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

async function callLog(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  return (await db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } })).map((r) => [
    r.toolName,
    r.failureCode,
  ]);
}

describe("an agent's notifications/cancelled for an MCP Connection's Tool", () => {
  it("reaches the Source's in-flight request within a second, and the call log says TOOL_CALL_CANCELLED", async () => {
    const mcp = `${await productUrl()}/mcp`;
    const { source, seen } = await stallingSource("long_report");
    const { token, identityId } = await agentFor(source.id);
    const answer = postCall(mcp, token, 41, "long_report");
    await expect.poll(() => seen.startedAt, { timeout: 10_000 }).toBeDefined();
    const sent = Date.now();
    expect((await postCancel(mcp, token, 41)).status).toBe(202);
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(seen.abortedAt! - sent).toBeLessThan(1_000);
    const body = (await (await answer).json()) as { result: CallToolResult };
    expect(errorCode(body.result)).toBe("TOOL_CALL_CANCELLED");
    expect(await callLog(identityId)).toEqual([["long_report", "TOOL_CALL_CANCELLED"]]);
    // Nothing is left behind for the call once it ended.
    const db = await getDb();
    await expect.poll(() => db.toolCall.count({ where: { sourceId: source.id } }), { timeout: 3_000 }).toBe(0);
  });

  it("is ignored from another Agent Identity's token, or for a request id the agent has not made", async () => {
    const mcp = `${await productUrl()}/mcp`;
    const { source, seen } = await stallingSource("guarded_report");
    const owner = await agentFor(source.id);
    const stranger = await agentFor(source.id);
    const answer = postCall(mcp, owner.token, "job-1", "guarded_report");
    await expect.poll(() => seen.startedAt, { timeout: 10_000 }).toBeDefined();
    expect((await postCancel(mcp, stranger.token, "job-1")).status).toBe(202);
    expect((await postCancel(mcp, owner.token, "job-2")).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(seen.abortedAt).toBeUndefined();
    expect((await postCancel(mcp, owner.token, "job-1")).status).toBe(202);
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(errorCode(((await (await answer).json()) as { result: CallToolResult }).result)).toBe("TOOL_CALL_CANCELLED");
  });

  it.runIf(process.env.QM_TEST_POSTGRES === "1")(
    "reaches the Source from another instance than the one running the call (announced by NOTIFY)",
    { timeout: 120_000 },
    async () => {
      const url = database.url();
      if (!url) throw new Error("no database URL");
      const other = await startOtherInstance(url);
      closers.push(other.stop);
      const { source, seen } = await stallingSource("far_report");
      const { token } = await agentFor(source.id);
      // Warmed up first: a cold instance's first request (modules loading) is not what is measured.
      await postMcp(`${other.url}/mcp`, token, { jsonrpc: "2.0", id: 1, method: "ping" }, LEGACY);
      const answer = postCall(`${await productUrl()}/mcp`, token, 7, "far_report");
      await expect.poll(() => seen.startedAt, { timeout: 10_000 }).toBeDefined();
      const sent = Date.now();
      expect((await postCancel(`${other.url}/mcp`, token, 7)).status).toBe(202);
      await expect.poll(() => seen.abortedAt, { timeout: 1_500, interval: 20 }).toBeDefined();
      expect(seen.abortedAt! - sent).toBeLessThan(1_500);
      expect(errorCode(((await (await answer).json()) as { result: CallToolResult }).result)).toBe(
        "TOOL_CALL_CANCELLED",
      );
    },
  );
});

describe("an MCP Connection Tool's deadline", () => {
  // The same code on either database: its real 50 s wait is spent once, on the embedded leg.
  it.skipIf(usePostgres)(
    "answers TOOL_CALL_TIMEOUT before a real MCP client's default 60 s request timeout",
    {
      timeout: 90_000,
    },
    async () => {
      expect(LIMITS.TOOL_CALL_MS).toMatchObject({ value: 50_000, class: "setting" });
      const { source } = await stallingSource("endless_report", 80_000);
      const { token, identityId } = await agentFor(source.id);
      // The client's own default timeout (60 s): no option given.
      const client = new Client({ name: "default-timeout", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${await productUrl()}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      closers.push(() => client.close());
      const t0 = Date.now();
      const result = (await client.callTool({ name: "endless_report", arguments: {} })) as CallToolResult;
      const took = Date.now() - t0;
      expect(errorCode(result)).toBe("TOOL_CALL_TIMEOUT");
      expect(took).toBeGreaterThanOrEqual(49_000);
      expect(took).toBeLessThan(58_000);
      expect(await callLog(identityId)).toEqual([["endless_report", "TOOL_CALL_TIMEOUT"]]);
    },
  );
});
