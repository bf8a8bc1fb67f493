/**
 * Pooled Source sessions: Tool Calls to an MCP Connection reuse one initialized session
 * instead of opening an exchange per call, survive a Source that restarts or forgets the
 * session, and reach servers of either protocol era.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { callRemoteTool } from "@/server/domain/agent-tools/remote-call";
import { closeAllSourceSessions, openSessionCount, sessionStats } from "@/server/domain/catalog/source-sessions";
import { LIMITS } from "@/server/limits";
import { builtInTool } from "@/server/mcp/tools/registry";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { type LegacyServer, simpleTool, startLegacyServer, startSdkServer } from "../helpers/mcp-servers";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;
afterEach(() => closeAllSourceSessions());

const echo = (name: string, args: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: `${name}:${JSON.stringify(args)}` }],
});

let n = 0;
async function legacySource(onCall: Parameters<typeof startLegacyServer>[0]["onCall"] = echo) {
  const server = await startLegacyServer({ tools: [simpleTool("lookup")], onCall });
  closers.push(server.close);
  return server;
}

function call(server: { url: string }, sourceId: string, query: string, timeoutMs?: number) {
  return callRemoteTool({
    sourceId,
    url: server.url,
    headers: {},
    allowLinkLocal: false,
    nativeName: "lookup",
    arguments: { query },
    timeoutMs,
  });
}

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;

describe("pooled Source sessions", () => {
  it("1,000 sequential calls to one Source open one session", async () => {
    const server = await legacySource();
    const id = `pool-${++n}`;
    for (let i = 0; i < 1000; i++) expect(text(await call(server, id, `q${i}`))).toBe(`lookup:{"query":"q${i}"}`);
    expect(server.initializes()).toBe(1);
    expect(sessionStats.opened.get(id)).toBe(1);
    expect(openSessionCount(id)).toBe(1);
    // One tools/call request per call: no initialize, probe or end of session in between.
    expect(server.requests.filter((r) => r.rpcMethod === "tools/call")).toHaveLength(1000);
    expect(server.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  it("runs calls to one Source concurrently, on at most SOURCE_SESSIONS sessions", async () => {
    let inFlight = 0;
    let most = 0;
    const server = await legacySource(async (name, args) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return echo(name, args);
    });
    const id = `pool-${++n}`;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => call(server, id, `c${i}`)));
    expect(results.map(text)).toEqual(Array.from({ length: 100 }, (_, i) => `lookup:{"query":"c${i}"}`));
    expect(most).toBeGreaterThan(LIMITS.SOURCE_SESSION_CALLS.value);
    expect(server.initializes()).toBeLessThanOrEqual(LIMITS.SOURCE_SESSIONS.value);
    expect(openSessionCount(id)).toBeLessThanOrEqual(LIMITS.SOURCE_SESSIONS.value);
  });

  it("reconnects without the caller seeing an error when the Source restarts between calls", async () => {
    const server = await legacySource();
    const id = `pool-${++n}`;
    expect(text(await call(server, id, "before"))).toBe('lookup:{"query":"before"}');
    await server.restart();
    // As after any real restart, the old connection's end has reached this side before the
    // next call (a call that meets a connection closing under it is not sent twice).
    await new Promise((r) => setTimeout(r, 100));
    expect(text(await call(server, id, "after"))).toBe('lookup:{"query":"after"}');
    expect(server.initializes()).toBe(2);
  });

  it("opens a new session when the Source refuses a stale one (404), and sends the call once more", async () => {
    const server = await legacySource();
    const id = `pool-${++n}`;
    await call(server, id, "one");
    server.forgetSessions();
    expect(text(await call(server, id, "two"))).toBe('lookup:{"query":"two"}');
    const calls = server.requests.filter((r) => r.rpcMethod === "tools/call");
    // The refused attempt and the one on the new session; the Source ran it once.
    expect(calls).toHaveLength(3);
    expect(server.initializes()).toBe(2);
  });

  it("fails only the call in flight when the Source dies mid-call, and the next call gets a new session", async () => {
    let die = true;
    const server = await legacySource((name, args, res) => {
      if (die) {
        die = false;
        res.socket?.destroy();
        return "no-answer";
      }
      return echo(name, args);
    });
    const id = `pool-${++n}`;
    const failure = await call(server, id, "dies").catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "SOURCE_UNREACHABLE" });
    expect(text(await call(server, id, "lives"))).toBe('lookup:{"query":"lives"}');
  });

  it("keeps the time limit per call on a shared session", async () => {
    const server = await legacySource(async (name, args) => {
      if (args.query === "slow") await new Promise((r) => setTimeout(r, 5000));
      return echo(name, args);
    });
    const id = `pool-${++n}`;
    const [slow, quick] = await Promise.all([
      call(server, id, "slow", 500).catch((e: unknown) => e),
      call(server, id, "quick", 500),
    ]);
    expect(slow).toMatchObject({ code: "TOOL_CALL_TIMEOUT" });
    expect(text(quick)).toBe('lookup:{"query":"quick"}');
    expect(text(await call(server, id, "again", 500))).toBe('lookup:{"query":"again"}');
    expect(server.initializes()).toBe(1);
  });

  it("closes a Source's sessions when it is edited, paused or deleted", async () => {
    const server = await legacySource();
    const { api, source } = await connectionTo(server.url, { name: `pooled-${++n}` });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const identity = await api.identities.create({ name: `pool-agent-${n}` });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "t" });
    const agent = await mcpClient(token);
    const name = (await agent.listTools()).tools.map((t) => t.name).find((t) => !builtInTool(t)) as string;
    const callOnce = async () =>
      ((await agent.callTool({ name, arguments: { query: "x" } })).content as { text: string }[])[0]?.text;
    expect(await callOnce()).toBe('lookup:{"query":"x"}');
    expect(openSessionCount(source.id)).toBe(1);

    await api.sources.update({ id: source.id, description: "only words" });
    expect(openSessionCount(source.id)).toBe(1); // nothing the session depends on changed
    await api.sources.update({ id: source.id, headers: { "X-Key": "new" } });
    expect(openSessionCount(source.id)).toBe(0);
    // At least: a check the edit made due may close a session of its own meanwhile.
    await expect.poll(() => server.requests.filter((r) => r.method === "DELETE").length).toBeGreaterThanOrEqual(1);

    expect(await callOnce()).toBe('lookup:{"query":"x"}');
    await api.sources.update({ id: source.id, paused: true });
    expect(openSessionCount(source.id)).toBe(0);
    await api.sources.update({ id: source.id, paused: false });
    expect(await callOnce()).toBe('lookup:{"query":"x"}');
    await api.sources.delete({ id: source.id });
    expect(openSessionCount(source.id)).toBe(0);
    await expect.poll(() => server.requests.filter((r) => r.method === "DELETE").length).toBeGreaterThanOrEqual(3);
  });
});

function mcpClient(token: string) {
  return mcp.connect(token, "pool-test-agent");
}

describe("Sources of either protocol era", () => {
  async function listAndCall(url: string, expectedRevision: string, requests: { headers: Record<string, unknown> }[]) {
    const { api, source } = await connectionTo(url, { name: `era-${++n}` });
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", tools: 1 });
    expect((await api.sources.get({ id: source.id })).protocolVersion).toBe(expectedRevision);
    const identity = await api.identities.create({ name: `era-agent-${n}` });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "t" });
    const agent = await mcpClient(token);
    // Model-facing names are unique across Sources: earlier tests' Sources took "lookup".
    const name = (await agent.listTools()).tools.map((t) => t.name).find((t) => !builtInTool(t)) as string;
    const result = await agent.callTool({ name, arguments: { query: expectedRevision } });
    expect((result.content as { text: string }[])[0]?.text).toBe(`lookup:{"query":"${expectedRevision}"}`);
    const db = await getDb();
    const row = await db.source.findUniqueOrThrow({ where: { id: source.id }, select: { protocolVersion: true } });
    expect(row.protocolVersion).toBe(expectedRevision);
    // Every request after the first carried the revision the Source speaks.
    expect(requests.at(-1)?.headers["mcp-protocol-version"]).toBe(expectedRevision);
    return source;
  }

  it("lists and calls a server that speaks only 2026-07-28 (no initialize, no sessions)", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("lookup")], onCall: echo, modernOnly: true });
    closers.push(server.close);
    await listAndCall(server.url, "2026-07-28", server.requests);
    const methods = server.requests.map((r) => r.headers["mcp-method"]);
    expect(methods).toContain("server/discover");
    expect(methods).toContain("tools/call");
    expect(methods).not.toContain("initialize");
    expect(server.requests.at(-1)?.headers["mcp-name"]).toBe("lookup");
  });

  it("lists and calls a server that speaks only 2025-06-18, and calls it without probing again", async () => {
    const server: LegacyServer = await legacySource();
    await listAndCall(server.url, "2025-06-18", server.requests);
    const rpc = server.requests.map((r) => r.rpcMethod);
    // The check probed once; the pooled call session went straight to initialize.
    expect(rpc.filter((m) => m === "server/discover")).toHaveLength(1);
    expect(rpc.filter((m) => m === "initialize")).toHaveLength(2);
  });
});
