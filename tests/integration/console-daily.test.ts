/**
 * The domain side of the console for daily work (issue 15): the catalog's "Not offerable"
 * filter and worst-first order, and the Agent Identities list's recent losses and failing
 * Sources per row.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { type RunningServer, simpleTool, startSdkServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
async function serve(catalog: () => ToolDef[]) {
  const server = await startSdkServer({ catalog });
  servers.push(server);
  return server;
}

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

  it("lists each identity's Tools lost in the last 7 days and its failing Sources", async () => {
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
