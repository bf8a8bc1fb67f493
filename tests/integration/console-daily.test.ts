/**
 * The domain side of the console for daily work (issue 15): the catalog's "Not offerable"
 * filter and worst-first order, and the Agent Identities list's recent losses and failing
 * Sources per row.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo, operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { paged, simpleTool, startRawServer, startSdkServer } from "../helpers/mcp-servers";
import { servedCatalogs } from "../helpers/served-catalogs";

withTestDatabase();
const { servers, serve } = servedCatalogs();

describe("what is broken, first", () => {
  it("filters every Tool no model is offered, counts them, and sorts the compatibility column worst first", async () => {
    const server = await serve(() => [
      simpleTool("fine"),
      simpleTool("reserved", { inputSchema: { type: "object", properties: { __token: { type: "string" } } } }),
      simpleTool("scalar", { inputSchema: { type: "string" } as never }),
      simpleTool("many", {
        inputSchema: {
          type: "object",
          properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`a${i}`, { type: "string" }])),
        },
      }),
    ]);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");

    const notOfferable = await api.catalog.listTools({ sourceId: source.id, state: "not_offerable" });
    expect(notOfferable.items.map((t) => t.nativeName).sort()).toEqual(["many", "reserved", "scalar"]);
    expect((await api.catalog.facets({ sourceId: source.id })).notOfferable).toBe(3);

    const worstFirst = await api.catalog.listTools({ sourceId: source.id, sort: "compatibility", direction: "desc" });
    expect(worstFirst.items.map((t) => t.nativeName)).toEqual(["many", "scalar", "reserved", "fine"]);
    expect(worstFirst.items.at(-1)?.compatibility.state).toBe("compatible");

    // A Compatible Tool withdrawn with its silent host is not offerable either, and sorts before offered ones.
    const db = await getDb();
    await db.source.update({ where: { id: source.id }, data: { hostSilentSince: new Date() } });
    const withdrawn = await api.catalog.listTools({ sourceId: source.id, state: "not_offerable" });
    expect(withdrawn.items.map((t) => t.nativeName)).toContain("fine");
    await db.source.update({ where: { id: source.id }, data: { hostSilentSince: null } });
  });

  it("lists each identity's Tools lost in the last 30 days (Lost recently's window) and its failing Sources", async () => {
    let tools = [simpleTool("keep"), simpleTool("drop_a"), simpleTool("drop_b")];
    const server = await serve(() => tools);
    const { api, source } = await connectionTo(server.url, { name: `Lossy ${Date.now()}` });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const identity = await api.identities.create({ name: `row-health-${Date.now()}` });
    const bystander = await api.identities.create({ name: `row-health-other-${Date.now()}` });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });

    tools = [simpleTool("keep")];
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    // The catalog is the same as before the failure: only the server is gone.
    await server.close();
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("failed");

    const rows = await api.identities.list({});
    const row = rows.find((r) => r.id === identity.id);
    expect(row?.lostTools).toBe(2);
    expect(row?.failingSources).toEqual([{ id: source.id, name: source.name, state: "failing" }]);
    const other = rows.find((r) => r.id === bystander.id);
    expect(other).toMatchObject({ lostTools: 0, failingSources: [] });

    // Unassigning counts the Tools it took away.
    await api.identities.unassignSource({ identityId: identity.id, sourceId: source.id });
    const after = (await api.identities.list({})).find((r) => r.id === identity.id);
    expect(after?.lostTools).toBe(3);
    expect(after?.failingSources).toEqual([]);
  });
});

describe("adding a Connection", () => {
  it("tests a connection by listing its first page only, saving nothing", async () => {
    const all = Array.from({ length: 7 }, (_, i) => simpleTool(`t${i}`));
    const server = await startRawServer(paged(all, 3));
    servers.push(server);
    const api = await operator();
    const db = await getDb();
    const before = { sources: await db.source.count(), checks: await db.catalogCheck.count() };

    const tested = await api.sources.testConnection({ url: server.url });
    expect(tested).toMatchObject({ ok: true, firstPageTools: 3, morePages: true });
    if (!tested.ok) throw new Error("unreachable");
    expect(tested.tools.map((t) => t.name)).toEqual(["t0", "t1", "t2"]);
    // Only the first page was asked for in full; nothing was stored.
    expect(server.requests.filter((r) => r.rpcMethod === "tools/list").length).toBeLessThanOrEqual(2);
    expect({ sources: await db.source.count(), checks: await db.catalogCheck.count() }).toEqual(before);

    // A name another Source has is reported by the test, before saving would refuse it; the check still ran.
    const existing = await api.sources.createMcpConnection({ name: `taken-${Date.now()}`, url: server.url });
    const named = await api.sources.testConnection({ url: server.url, name: existing.name.toUpperCase() });
    expect(named).toMatchObject({ ok: true, firstPageTools: 3 });
    expect(named.nameTaken).toMatch(/^name: a Source named ".+" already exists; choose another name\.$/);
    expect((await api.sources.testConnection({ url: server.url, name: `free-${Date.now()}` })).nameTaken).toBeNull();
    expect(tested.nameTaken).toBeNull();

    const one = await startRawServer(paged(all.slice(0, 2), 3));
    servers.push(one);
    expect(await api.sources.testConnection({ url: one.url })).toMatchObject({
      ok: true,
      firstPageTools: 2,
      morePages: false,
    });
  });

  it("reports a failure with its catalog code, and keeps the URL policy and the operator role", async () => {
    const api = await operator();
    const broken = await startRawServer(() => ({ status: 404, body: "nothing here", contentType: "text/plain" }));
    servers.push(broken);
    expect(await api.sources.testConnection({ url: broken.url })).toMatchObject({
      ok: false,
      failure: { code: "CATALOG_HTTP_ERROR", details: { status: 404 } },
    });
    // The same URL rules as saving: a cloud metadata address is refused before any request.
    await expect(api.sources.testConnection({ url: "http://169.254.169.254/mcp" })).rejects.toThrow(
      /169\.254\.169\.254/,
    );
    await expect(api.sources.testConnection({ url: "ftp://example.com/mcp" })).rejects.toThrow(/http or https/);
    const viewer = callerFor((await makeUser("viewer")).actor);
    await expect(viewer.sources.testConnection({ url: broken.url })).rejects.toThrow();
  });
});

describe("budget history", () => {
  it("records an identity's budget whenever it changes, and only then", async () => {
    const server = await serve(() => [simpleTool("a"), simpleTool("b")]);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const identity = await api.identities.create({ name: `history-${Date.now()}`, instructions: "Be brief." });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    await api.identities.update({ id: identity.id, description: "same budget" });
    await api.identities.unassignSource({ identityId: identity.id, sourceId: source.id });

    const history = await api.identities.budgetHistory({ id: identity.id });
    expect(history.map((h) => h.tools)).toEqual([0, 2, 0]);
    expect(history[1]?.budget.toolsBytes).toBeGreaterThan(0);
    expect(history.every((h) => h.budget.instructionsBytes === 9)).toBe(true);
    expect(history[0]?.at.getTime()).toBeLessThanOrEqual(history[2]?.at.getTime() ?? 0);
  });
});

describe("trying a Tool from the console", () => {
  it("calls it as an identity through the /mcp path, returns the exchange, asks before a destructive one, and records it", async () => {
    const server = await startSdkServer({
      catalog: () => [simpleTool("lookup"), simpleTool("wipe", { annotations: { destructiveHint: true } })],
      onCall: (name, args) => ({
        content: [
          { type: "text", text: `${name} saw ${String(args.query)}` },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
        structuredContent: { echoed: args.query },
      }),
    });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const holder = await api.identities.create({ name: `try-holder-${Date.now()}` });
    const stranger = await api.identities.create({ name: `try-stranger-${Date.now()}` });
    await api.identities.assignSource({ identityId: holder.id, sourceId: source.id });
    const tools = (await api.catalog.listTools({ sourceId: source.id })).items;
    const lookup = tools.find((t) => t.nativeName === "lookup");
    const wipe = tools.find((t) => t.nativeName === "wipe");
    if (!lookup || !wipe) throw new Error("tools missing");

    const answer = await api.catalog.tryTool({ toolId: lookup.id, identityId: holder.id, arguments: { query: "A-1" } });
    expect(answer.request).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: lookup.modelFacingName, arguments: { query: "A-1" } },
    });
    expect(answer.response).toMatchObject({
      result: {
        content: [
          { type: "text", text: "lookup saw A-1" },
          { type: "image", mimeType: "image/png" },
        ],
        structuredContent: { echoed: "A-1" },
      },
    });

    // An identity that does not hold the Tool is refused as /mcp refuses it.
    const refused = await api.catalog.tryTool({
      toolId: lookup.id,
      identityId: stranger.id,
      arguments: { query: "x" },
    });
    expect(refused.response).toMatchObject({ error: { code: -32602, data: { code: "NOT_FOUND" } } });

    // A destructive Tool is called only once confirmed.
    await expect(
      api.catalog.tryTool({ toolId: wipe.id, identityId: holder.id, arguments: { query: "all" } }),
    ).rejects.toThrow(/confirm/);
    const confirmed = await api.catalog.tryTool({
      toolId: wipe.id,
      identityId: holder.id,
      arguments: { query: "all" },
      confirmed: true,
    });
    expect(confirmed.response).toMatchObject({ result: { content: [{ text: "wipe saw all" }, { type: "image" }] } });

    const audit = await api.audit.list({ action: "tool.try", targetId: lookup.id });
    // Newest first: the first call is the last row.
    expect(audit.items.at(-1)?.details).toMatchObject({
      identityId: holder.id,
      argumentNames: ["query"],
      outcome: "succeeded",
    });
    expect(JSON.stringify(audit.items)).not.toContain("A-1");

    // The call log has each try as the identity's call, as /mcp records an agent's.
    await flushCallLog();
    const logged = await api.calls.list({ identityId: holder.id });
    expect(logged.items.map((c) => [c.toolName, c.outcome, c.tokenId, c.tried])).toContainEqual([
      lookup.modelFacingName,
      "ok",
      "console",
      true,
    ]);
    // Each try is marked, so it never passes for the agent's own call.
    expect(logged.items.every((c) => c.tried)).toBe(true);

    const viewer = callerFor((await makeUser("viewer")).actor);
    await expect(viewer.catalog.tryTool({ toolId: lookup.id, identityId: holder.id, arguments: {} })).rejects.toThrow();
  });
});
