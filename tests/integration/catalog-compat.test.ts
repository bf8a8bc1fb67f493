import { describe, expect, it } from "vitest";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool } from "../helpers/mcp-servers";
import { servedCatalogs } from "../helpers/served-catalogs";

withTestDatabase();
const { serve } = servedCatalogs();

describe("model compatibility in the catalog", () => {
  it("keeps a Tool with a reserved argument, marked Schema unsupported with no model-facing name, and publishes the rest", async () => {
    const server = await serve(() => [
      simpleTool("fine"),
      simpleTool("reserved", { inputSchema: { type: "object", properties: { __token: { type: "string" } } } }),
      simpleTool("nested_ok", {
        inputSchema: {
          type: "object",
          properties: { opts: { type: "object", properties: { __deep: { type: "string" } } } },
        },
      }),
      simpleTool("scalar", { inputSchema: { type: "string" } as never }),
    ]);
    const { api, source } = await connectionTo(server.url);
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "succeeded", tools: 4, added: 4 });
    // Each new Tool is recorded as added, with its model-facing name or why it has none.
    const added = await api.sources.checkChanges({ checkId: outcome.checkId });
    expect(Object.fromEntries(added.items.map((c) => [c.nativeName, [c.kind, c.modelFacingName, c.detail]]))).toEqual({
      fine: ["added", "fine", null],
      nested_ok: ["added", "nested_ok", null],
      reserved: ["added", null, "schema_unsupported"],
      scalar: ["added", null, "input_not_object"],
    });

    const all = await api.catalog.listTools({ sourceId: source.id });
    const byName = Object.fromEntries(all.items.map((t) => [t.nativeName, t]));
    expect(byName.fine).toMatchObject({ modelFacingName: "fine", compatibility: { state: "compatible" } });
    expect(byName.nested_ok?.compatibility.state).toBe("compatible");
    expect(byName.reserved).toMatchObject({
      modelFacingName: null,
      compatibility: { state: "schema_unsupported" },
      modelFacingBytes: 0,
    });
    expect(byName.reserved?.compatibility.reason).not.toContain("__token");
    expect(byName.scalar?.compatibility.state).toBe("input_not_object");

    const unsupported = await api.catalog.listTools({ state: "schema_unsupported" });
    expect(unsupported.items.map((t) => t.nativeName)).toContain("reserved");
    const got = await api.sources.get({ id: source.id });
    expect(got).toMatchObject({ toolCount: 4, compatibleToolCount: 2 });
    const facets = await api.catalog.facets({ sourceId: source.id });
    expect(facets.states).toEqual({ compatible: 2, schema_unsupported: 1, input_not_object: 1 });
    expect(facets.sources.map((s) => s.id)).toContain(source.id);
  });

  it("gives distinct, stable model-facing names when two Sources publish the same native name", async () => {
    const a = await serve(() => [simpleTool("lookup"), simpleTool("only_a")]);
    let bCatalog = [simpleTool("lookup")];
    const b = await serve(() => bCatalog);
    const first = await connectionTo(a.url, { name: "Alpha Docs" });
    const second = await connectionTo(b.url, { name: "Beta Tickets" });
    await first.api.sources.checkNow({ id: first.source.id });
    await second.api.sources.checkNow({ id: second.source.id });

    const names = async () => {
      const rows = (await first.api.catalog.listTools({ search: "lookup" })).items.filter(
        (t) => t.nativeName === "lookup",
      );
      return Object.fromEntries(rows.map((t) => [t.sourceName, t.modelFacingName]));
    };
    const initial = await names();
    expect(initial).toEqual({ "Alpha Docs": "lookup", "Beta Tickets": "beta_tickets_lookup" });

    // Re-checks, a description change and the other Source's churn leave names alone.
    bCatalog = [simpleTool("lookup", { description: "Searches tickets, now faster." }), simpleTool("extra")];
    await second.api.sources.checkNow({ id: second.source.id });
    await first.api.sources.checkNow({ id: first.source.id });
    expect(await names()).toEqual(initial);
  });

  it("frees a model-facing name when its Tool leaves, and records the Tool becoming incompatible", async () => {
    let catalog = [simpleTool("report")];
    const server = await serve(() => catalog);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    catalog = [simpleTool("report", { inputSchema: { type: "object", required: ["__x"] } })];
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome).toMatchObject({ status: "succeeded", changed: 1 });
    const [tool] = (await api.catalog.listTools({ sourceId: source.id })).items;
    expect(tool).toMatchObject({ modelFacingName: null, compatibility: { state: "schema_unsupported" } });
    const detail = await api.catalog.getTool({ id: tool!.id });
    expect(detail.definition).toMatchObject({ name: "report", inputSchema: { required: ["__x"] } });
  });
});

describe("Connection URLs", () => {
  it("refuses non-HTTP schemes and metadata addresses unless an admin allows link-local", async () => {
    const api = callerFor((await makeUser("operator")).actor);
    await expect(api.sources.createMcpConnection({ name: "file", url: "file:///etc/passwd" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("url: must use http or https"),
    });
    await expect(
      api.sources.createMcpConnection({ name: "meta", url: "http://169.254.169.254/latest" }),
    ).rejects.toMatchObject({ message: expect.stringContaining("link-local") });
    // The unspecified address reaches this host: refused in its IPv6 spellings as 0.0.0.0 is.
    for (const url of [
      "http://0.0.0.0/mcp",
      "http://[::]/mcp",
      "http://[::ffff:0.0.0.0]/mcp",
      "http://[64:ff9b::]/mcp",
    ])
      await expect(api.sources.createMcpConnection({ name: "self", url }), url).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("unspecified"),
      });
    await expect(api.sources.setNetworkPolicy({ allowLinkLocal: true })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const admin = callerFor((await makeUser("admin")).actor);
    await admin.sources.setNetworkPolicy({ allowLinkLocal: true });
    const created = await api.sources.createMcpConnection({ name: "meta", url: "http://169.254.169.254/latest" });
    expect(created.url).toBe("http://169.254.169.254/latest");
    await admin.sources.setNetworkPolicy({ allowLinkLocal: false });
    // With the policy back, a check refuses the address before connecting.
    const outcome = await api.sources.checkNow({ id: created.id });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "CATALOG_ADDRESS_BLOCKED" } });
  });

  it("refuses an over-long name and a duplicate name, naming the field", async () => {
    const api = callerFor((await makeUser("operator")).actor);
    await expect(
      api.sources.createMcpConnection({ name: "n".repeat(101), url: "http://127.0.0.1:1/mcp" }),
    ).rejects.toMatchObject({ message: "name: must be at most 100 characters" });
    await api.sources.createMcpConnection({ name: "Twin", url: "http://127.0.0.1:1/mcp" });
    await expect(
      api.sources.createMcpConnection({ name: "twin", url: "http://127.0.0.1:2/mcp" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("name:") });
  });
});
