import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { connectionTo, snapshot } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import {
  paged,
  type RunningServer,
  simpleTool,
  startRawServer,
  startSdkServer,
  type ToolDef,
} from "../helpers/mcp-servers";

withTestDatabase();

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function track<T extends RunningServer>(s: Promise<T>): Promise<T> {
  const server = await s;
  servers.push(server);
  return server;
}

const tools = (n: number, prefix = "tool") =>
  Array.from({ length: n }, (_, i) => simpleTool(`${prefix}_${String(i).padStart(4, "0")}`));

describe("catalog checks against an SDK server", () => {
  it("follows nextCursor to the end and publishes every Tool, recording the check", async () => {
    let catalog: ToolDef[] = tools(250);
    const server = await track(startSdkServer({ catalog: () => catalog, pageSize: 100 }));
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("never_checked");

    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "succeeded", pages: 3, tools: 250, added: 250, removed: 0, changed: 0 });
    expect(outcome.bytes).toBeGreaterThan(250 * 100);

    const got = await api.sources.get({ id: source.id });
    expect(got).toMatchObject({ catalogState: "ok", toolCount: 250, compatibleToolCount: 250, lastFailure: null });
    const listed = await api.catalog.listTools({ sourceId: source.id, limit: 500 });
    expect(listed.total).toBe(250);
    expect(listed.items[0]).toMatchObject({
      nativeName: "tool_0000",
      modelFacingName: "tool_0000",
      compatibility: { state: "compatible", reason: null },
    });
    expect(listed.items[0]?.definitionBytes).toBeGreaterThan(50);

    // A second check with changes records exactly what changed, Tool by Tool.
    catalog = [...catalog.slice(1), simpleTool("brand_new")];
    catalog[0] = { ...catalog[0]!, description: "Now does something else." };
    const second = await api.sources.checkNow({ id: source.id });
    expect(second).toMatchObject({ status: "succeeded", added: 1, removed: 1, changed: 1 });
    const db = await getDb();
    const changes = await db.catalogChange.findMany({
      where: { sourceId: source.id, checkId: second.checkId },
      orderBy: { nativeName: "asc" },
    });
    expect(changes.map((c) => `${c.kind}:${c.nativeName}`)).toEqual([
      "added:brand_new",
      "removed:tool_0000",
      "changed:tool_0001",
    ]);
    const listed2 = await api.sources.checkChanges({ checkId: second.checkId });
    expect(listed2.items.map((c) => `${c.kind}:${c.nativeName}`).sort()).toEqual([
      "added:brand_new",
      "changed:tool_0001",
      "removed:tool_0000",
    ]);

    const history = await api.sources.checks({ id: source.id });
    expect(history.items.map((c) => c.status)).toEqual(["succeeded", "succeeded"]);
    expect(history.items[0]).toMatchObject({
      trigger: "manual",
      pages: 3,
      tools: 250,
      added: 1,
      removed: 1,
      changed: 1,
    });
    expect(history.items[0]?.finishedAt).toBeInstanceOf(Date);
  });

  it("an unchanged catalog changes nothing", async () => {
    const server = await track(startSdkServer({ catalog: () => tools(30), pageSize: 7 }));
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    const before = await snapshot(source.id);
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({
      status: "succeeded",
      added: 0,
      removed: 0,
      changed: 0,
      pages: 5,
    });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("sends the Connection's auth headers, keeps them encrypted at rest, and never returns them", async () => {
    const server = await track(
      startSdkServer({ catalog: () => tools(3), requireHeader: ["x-api-key", "s3cret-value"] }),
    );
    const { api, source } = await connectionTo(server.url, { headers: { "X-Api-Key": "s3cret-value" } });
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", tools: 3 });
    expect(server.requests.every((r) => r.headers["x-api-key"] === "s3cret-value")).toBe(true);

    const db = await getDb();
    const row = await db.source.findUniqueOrThrow({ where: { id: source.id } });
    expect(JSON.stringify(row)).not.toContain("s3cret-value");
    expect(row.encryptedHeaders).toMatch(/^v2\./);
    const seen = JSON.stringify([await api.sources.get({ id: source.id }), await api.sources.list()]);
    expect(seen).not.toContain("s3cret-value");
    expect((await api.sources.get({ id: source.id })).headerNames).toEqual(["X-Api-Key"]);

    await api.sources.update({ id: source.id, headers: { "X-Api-Key": "wrong" } });
    const refused = await api.sources.checkNow({ id: source.id });
    expect(refused).toMatchObject({ status: "failed", failure: { code: "CATALOG_UNAUTHORIZED" } });
  });
});

describe("the Streamable HTTP transport", () => {
  it("lists a server that answers with Server-Sent Events in a session, and ends the session", async () => {
    const server = await track(startSdkServer({ catalog: () => tools(250), pageSize: 100, sessions: true }));
    const { api, source } = await connectionTo(server.url);
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", pages: 3, tools: 250 });
    // A check probes for 2026-07-28 first (server/discover); this 2025-era server makes it fall back to initialize.
    const [probe, initialize, ...rest] = server.requests;
    expect(probe?.headers["mcp-method"]).toBe("server/discover");
    const sessionId = rest[0]?.headers["mcp-session-id"];
    expect(initialize?.headers["mcp-session-id"]).toBeUndefined();
    expect(sessionId).toEqual(expect.any(String));
    for (const r of rest) {
      expect(r.headers["mcp-session-id"]).toBe(sessionId);
      expect(r.headers["mcp-protocol-version"]).toEqual(expect.any(String));
    }
    expect(rest.at(-1)?.method).toBe("DELETE");
    const db = await getDb();
    const row = await db.source.findUniqueOrThrow({ where: { id: source.id }, select: { protocolVersion: true } });
    expect(row.protocolVersion).toMatch(/^2025-/);
  });

  it("reads events with CRLF line ends, comments, notifications and a message over several data lines", async () => {
    const all = tools(12);
    const server = await track(
      startRawServer(({ cursor }) => ({ ...(paged(all, 5)({ cursor }) as { result: unknown }), sse: true })),
    );
    const { api, source } = await connectionTo(server.url);
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", pages: 3, tools: 12 });
  });

  it("follows a redirect within the server's origin, and refuses one to another origin", async () => {
    const all = tools(3);
    const inside = await track(startRawServer(paged(all, 5), { from: "/old", to: "/mcp", status: 307 }));
    const moved = await connectionTo(inside.url.replace(/\/mcp$/, "/old"));
    expect(await moved.api.sources.checkNow({ id: moved.source.id })).toMatchObject({ status: "succeeded", tools: 3 });

    const port = new URL(inside.url).port;
    const away = await track(
      startRawServer(paged(all, 5), { from: "/mcp", to: `http://localhost:${port}/elsewhere`, status: 307 }),
    );
    const { api, source } = await connectionTo(away.url);
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_HTTP_ERROR", details: { status: 307 } },
    });
  });
});

describe("a failing check keeps the previous catalog exactly", () => {
  async function withBaseline(
    onLaterPages: (call: {
      page: number;
      cursor: string | undefined;
    }) => ReturnType<Parameters<typeof startRawServer>[0]>,
  ) {
    let phase: "baseline" | "broken" = "baseline";
    const baseline = tools(12);
    const good = paged(baseline, 5);
    const server = await track(startRawServer((call) => (phase === "baseline" ? good(call) : onLaterPages(call))));
    const { api, source } = await connectionTo(server.url);
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", tools: 12 });
    const before = await snapshot(source.id);
    phase = "broken";
    return { api, source, before, server };
  }

  it("HTTP 500 on page 2", async () => {
    const { api, source, before } = await withBaseline(({ page, cursor }) =>
      page % 2 === 0 ? { status: 500, body: "boom", contentType: "text/plain" } : paged(tools(12), 5)({ cursor }),
    );
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_HTTP_ERROR", details: { status: 500, page: 2 } },
    });
    expect(await snapshot(source.id)).toBe(before);
    const got = await api.sources.get({ id: source.id });
    expect(got.catalogState).toBe("failing");
    expect(got.failingSince).toBeInstanceOf(Date);
    expect(got.lastFailure).toMatchObject({ code: "CATALOG_HTTP_ERROR" });
    expect(got.lastFailure?.message).toContain("HTTP 500");
    expect(got.toolCount).toBe(12);
  });

  it("a malformed answer: tools is not an array", async () => {
    const { api, source, before } = await withBaseline(() => ({ result: { tools: { not: "an array" } } }));
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
    expect(outcome.failure?.message).toContain('"tools" is not an array');
    expect(await snapshot(source.id)).toBe(before);
  });

  it("a malformed answer: not JSON-RPC at all", async () => {
    const { api, source, before } = await withBaseline(() => ({ status: 200, body: '{"hello":"world"}' }));
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("an event stream that ends without an answer", async () => {
    const note = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: 1 },
    });
    const { api, source, before } = await withBaseline(() => ({ events: `event: message\ndata: ${note}\n\n` }));
    const outcome = await api.sources.checkNow({ id: source.id });
    // Said at once: not CATALOG_TIMEOUT when the check's clock runs out.
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
    expect(outcome.failure?.message).toContain("without answering");
    expect(await snapshot(source.id)).toBe(before);
  });

  it("a cursor loop", async () => {
    const { api, source, before } = await withBaseline(({ page }) => ({
      result: { tools: [simpleTool(`loop_${page}`)], nextCursor: page === 1 ? "A" : "B" },
    }));
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_CURSOR_LOOP", details: { page: 3 } } });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("duplicate native names", async () => {
    const { api, source, before } = await withBaseline(() => ({
      result: { tools: [simpleTool("same"), simpleTool("same")] },
    }));
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_DUPLICATE_TOOL_NAME", details: { tool: "same" } },
    });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("a JSON-RPC error answer", async () => {
    const { api, source, before } = await withBaseline(() => ({
      error: { code: -32603, message: "database is down" },
    }));
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_REMOTE_ERROR", details: { code: -32603 } },
    });
    expect(outcome.failure?.message).toContain("database is down");
    expect(await snapshot(source.id)).toBe(before);
  });

  it("an answer to a request that was never made", async () => {
    const { api, source, before } = await withBaseline(() => ({
      status: 200,
      body: JSON.stringify({ jsonrpc: "2.0", id: 987654, result: { tools: [] } }),
    }));
    const started = Date.now();
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await snapshot(source.id)).toBe(before);
  });

  it("an unreachable server", async () => {
    const { api, source, before, server } = await withBaseline(({ cursor }) => paged(tools(12), 5)({ cursor }));
    await server.close();
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_TRANSPORT_ERROR" } });
    expect(outcome.failure?.message).toContain("ECONNREFUSED");
    expect(await snapshot(source.id)).toBe(before);
  });

  it("a slow server that answers within 30 seconds passes", async () => {
    // Three pages, 8 s each: 24 s of the 30 s the check may take.
    const slow = paged(tools(12), 5);
    const server = await track(startRawServer(async (call) => ({ ...slow(call), delayMs: 8_000 })));
    const { api, source } = await connectionTo(server.url);
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "succeeded", pages: 3, tools: 12 });
  }, 90_000);

  it("a check that runs past 30 seconds times out", async () => {
    const { api, source, before } = await withBaseline(({ page, cursor }) =>
      page === 3 ? { hang: true } : paged(tools(12), 5)({ cursor }),
    );
    const started = Date.now();
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(29_500);
    expect(outcome).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_TIMEOUT", details: { limit: 30_000 } },
    });
    expect(await snapshot(source.id)).toBe(before);
  }, 90_000);
});
