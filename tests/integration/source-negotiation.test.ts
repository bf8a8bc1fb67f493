/**
 * Version negotiation with real-world 2025-era servers: the 2026-07-28 probe
 * (server/discover) may meet anything — an HTTP 500 from a session check (as
 * @cyanheads/git-mcp-server 2.15.3 answers), a 404 page, HTML, an empty body, no answer
 * at all. Only a 2026 answer counts; everything else falls back to initialize, in catalog
 * checks and Tool Calls alike, and the verdict is remembered so later connections skip
 * the probe.
 */
import type http from "node:http";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { callRemoteTool } from "@/server/domain/agent-tools/remote-call";
import { closeAllSourceSessions } from "@/server/domain/catalog/source-sessions";
import { LIMITS } from "@/server/limits";
import { builtInTool } from "@/server/mcp/tools/registry";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { type LegacyServer, simpleTool, startLegacyServer } from "../helpers/mcp-servers";

withTestDatabase();
const route = mcpRoute();
const closers = route.closers;
const probeLimit = LIMITS.SOURCE_PROBE_MS as { value: number };
const defaultProbeMs = probeLimit.value;
beforeAll(() => {
  // A hanging probe is cut at SOURCE_PROBE_MS; a short one keeps the test quick.
  probeLimit.value = 1_000;
});
afterEach(() => closeAllSourceSessions());
afterAll(() => {
  probeLimit.value = defaultProbeMs;
});

const echo = (name: string, args: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: `${name}:${JSON.stringify(args)}` }],
});

type Answer = (res: http.ServerResponse, id: unknown) => void;
const rpcError = (id: unknown, code: number, message: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });

/** Each way a deployed server was seen to answer, or could answer, server/discover. */
const PROBE_ANSWERS: [string, Answer][] = [
  [
    "HTTP 500 with a JSON-RPC error (a session check that throws)",
    (res, id) =>
      res.writeHead(500, { "content-type": "application/json" }).end(rpcError(id, -32603, "Session validation failed")),
  ],
  [
    "HTTP 500 as plain text",
    (res) => res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error"),
  ],
  [
    "HTTP 503 with a session id it hands out",
    (res) => res.writeHead(503, { "mcp-session-id": "from-the-probe", "content-type": "text/plain" }).end("busy"),
  ],
  [
    "HTTP 404 with an HTML page",
    (res) => res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><h1>Not Found</h1>"),
  ],
  ["HTTP 405 with no body", (res) => res.writeHead(405).end()],
  ["HTTP 406", (res) => res.writeHead(406, { "content-type": "application/json" }).end('{"error":"Not Acceptable"}')],
  [
    "a JSON-RPC error (method not found)",
    (res, id) =>
      res.writeHead(200, { "content-type": "application/json" }).end(rpcError(id, -32601, "Method not found")),
  ],
  [
    "a JSON-RPC error (-32001, session not found)",
    (res, id) =>
      res.writeHead(404, { "content-type": "application/json" }).end(rpcError(id, -32001, "Session not found")),
  ],
  ["an HTML page with 200", (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>MCP</html>")],
  ["an empty JSON body", (res) => res.writeHead(200, { "content-type": "application/json" }).end("")],
  ["JSON that is not JSON-RPC", (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}')],
  [
    "an answer to another id",
    (res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: 999, result: {} })),
  ],
  ["202 Accepted, as for a notification", (res) => res.writeHead(202).end()],
  [
    "an event stream that ends unanswered",
    (res) => res.writeHead(200, { "content-type": "text/event-stream" }).end(": keep-alive\n\n"),
  ],
  ["no answer at all (the POST hangs)", () => {}],
  [
    "a result that is no DiscoverResult",
    (res, id) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id, result: { hello: "world" } })),
  ],
];

let n = 0;
async function hostileSource(answer: Answer): Promise<LegacyServer> {
  const server = await startLegacyServer({ tools: [simpleTool("lookup")], onCall: echo, onDiscover: answer });
  closers.push(server.close);
  return server;
}

const rpcMethods = (server: LegacyServer) => server.requests.map((r) => r.rpcMethod);
const probes = (server: LegacyServer) => rpcMethods(server).filter((m) => m === "server/discover").length;

describe("a probe answered by anything but a 2026-07-28 server", () => {
  it.each(PROBE_ANSWERS)("falls back to initialize when the probe gets %s: check, then calls", async (_, answer) => {
    const server = await hostileSource(answer);
    const { api, source } = await connectionTo(server.url, { name: `probe-${++n}` });
    const started = Date.now();
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome, JSON.stringify(outcome.failure)).toMatchObject({ status: "succeeded", tools: 1 });
    // Bounded: even a probe that is never answered costs SOURCE_PROBE_MS, not the check's 30 s.
    expect(Date.now() - started).toBeLessThan(probeLimit.value + 5_000);
    expect((await api.sources.get({ id: source.id })).protocolVersion).toBe("2025-06-18");
    expect(probes(server)).toBe(1);
    expect(server.initializes()).toBe(1);
    // No session id the probe's answer carried was adopted.
    expect(server.requests.filter((r) => r.headers["mcp-session-id"] === "from-the-probe")).toEqual([]);

    // An agent calls the Tool through /mcp: the pooled session connects with the verdict.
    const identity = await api.identities.create({ name: `probe-agent-${n}` });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "t" });
    const agent = await route.connect(token, "probe-test-agent");
    const name = (await agent.listTools()).tools.map((t) => t.name).find((t) => !builtInTool(t)) as string;
    const result = await agent.callTool({ name, arguments: { query: "q" } });
    expect(result.isError ?? false).toBe(false);
    expect((result.content as { text: string }[])[0]?.text).toBe('lookup:{"query":"q"}');

    // The next check remembers the verdict too: no second probe.
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded" });
    expect(probes(server)).toBe(1);
  });

  it.each(PROBE_ANSWERS.filter(([what]) => /500|HTML|empty|hangs/.test(what)))(
    "a Tool Call to a Source never checked probes, falls back on %s, and remembers it",
    async (_, answer) => {
      const server = await hostileSource(answer);
      const sourceId = `never-checked-${++n}`;
      const versions: string[] = [];
      const call = () =>
        callRemoteTool({
          sourceId,
          url: server.url,
          headers: {},
          allowLinkLocal: false,
          nativeName: "lookup",
          arguments: { query: "x" },
          onVersion: (v) => versions.push(v),
        });
      expect(((await call()).content as { text: string }[])[0]?.text).toBe('lookup:{"query":"x"}');
      expect(versions).toEqual(["2025-06-18"]);
      // A new session (the first one forgotten by the server) connects without probing.
      server.forgetSessions();
      expect(((await call()).content as { text: string }[])[0]?.text).toBe('lookup:{"query":"x"}');
      expect(probes(server)).toBe(1);
      expect(server.initializes()).toBe(2);
    },
  );

  it("a server that cannot be reached at all still fails as unreachable (nothing to fall back to)", async () => {
    const server = await hostileSource((res) => res.destroy());
    const { api, source } = await connectionTo(server.url, { name: `probe-${++n}` });
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome.status).toBe("failed");
    expect(outcome.failure?.code).toBe("CATALOG_TRANSPORT_ERROR");
    const db = await getDb();
    const row = await db.source.findUniqueOrThrow({ where: { id: source.id }, select: { protocolVersion: true } });
    expect(row.protocolVersion).toBeNull();
  });
});
