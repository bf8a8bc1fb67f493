import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { sweepSilentHosts } from "@/server/domain/sources/tool-hosts";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith, toolsOfModelBytes } from "../helpers/hosts";
import { simpleTool } from "../helpers/mcp-servers";
import { servedCatalogs } from "../helpers/served-catalogs";

withTestDatabase();
const { serve } = servedCatalogs();
async function operatorApi() {
  return callerFor((await makeUser("operator")).actor);
}
let k = 0;
const identityName = () => `agent-${++k}-${Math.random().toString(36).slice(2, 6)}`;
const BUDGET = LIMITS.IDENTITY_BUDGET_BYTES.value;

describe("Agent Identities", () => {
  it("hold every Compatible Tool of their Sources, and the budget counts exactly those plus instructions", async () => {
    const server = await serve(() => [
      simpleTool("alpha"),
      simpleTool("beta"),
      simpleTool("bad", { inputSchema: { type: "object", properties: { __x: {} } } }),
    ]);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    const identity = await api.identities.create({ name: identityName(), instructions: "Be brief. ✓" });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });

    const holdings = await api.identities.holdings({ id: identity.id });
    expect(holdings.items.map((t) => t.modelFacingName)).toEqual(["alpha", "beta"]);
    const got = await api.identities.get({ id: identity.id });
    const toolsBytes = holdings.items.reduce((n, t) => n + t.bytes, 0);
    expect(got.budget).toMatchObject({
      toolsBytes,
      instructionsBytes: Buffer.byteLength("Be brief. ✓"),
      limitBytes: BUDGET,
    });
    expect(got.budget.usedBytes).toBe(toolsBytes + got.budget.instructionsBytes);
    expect(got).toMatchObject({ state: "ok", tools: 2, overBudget: null });
    expect(got.sources).toEqual([expect.objectContaining({ sourceId: source.id, tools: 2, bytes: toolsBytes })]);

    const listed = (await api.identities.list()).find((i) => i.id === identity.id);
    expect(listed).toMatchObject({ sources: 1, tools: 2, state: "ok", budget: { usedBytes: got.budget.usedBytes } });
    const tool = (await api.catalog.listTools({ sourceId: source.id, search: "alpha" })).items[0]!;
    expect((await api.catalog.getTool({ id: tool.id })).heldBy).toEqual({
      total: 1,
      items: [{ id: identity.id, name: identity.name, pinned: false }],
    });
    // The Tool page pins per holder: pinned by its model-facing name for that identity only.
    await api.identities.pinTool({ identityId: identity.id, name: "alpha" });
    expect((await api.catalog.getTool({ id: tool.id })).heldBy.items).toEqual([
      { id: identity.id, name: identity.name, pinned: true },
    ]);
    const beta = (await api.catalog.listTools({ sourceId: source.id, search: "beta" })).items[0]!;
    expect((await api.catalog.getTool({ id: beta.id })).heldBy.items[0]?.pinned).toBe(false);
  });

  it("give two Sources' same-named Tools distinct model-facing names that stay put", async () => {
    const a = await serve(() => [simpleTool("lookup")]);
    let bCatalog = [simpleTool("lookup")];
    const b = await serve(() => bCatalog);
    const one = await connectionTo(a.url, { name: "Orders API" });
    const two = await connectionTo(b.url, { name: "People API" });
    await one.api.sources.checkNow({ id: one.source.id });
    await two.api.sources.checkNow({ id: two.source.id });
    const api = one.api;
    const identity = await api.identities.create({ name: identityName() });
    await api.identities.assignSource({ identityId: identity.id, sourceId: one.source.id });
    await api.identities.assignSource({ identityId: identity.id, sourceId: two.source.id });
    const names = async () =>
      (await api.identities.holdings({ id: identity.id })).items
        .map((t) => `${t.sourceName}:${t.modelFacingName}`)
        .sort();
    const before = await names();
    expect(new Set(before.map((n) => n.split(":")[1])).size).toBe(2);
    bCatalog = [simpleTool("lookup", { description: "Looks people up, v2." })];
    await two.api.sources.checkNow({ id: two.source.id });
    await one.api.sources.checkNow({ id: one.source.id });
    expect(await names()).toEqual(before);
  });

  it("record in Lost recently a removal, a Tool turning Schema unsupported, an unassignment and a silent host, each with its reason", async () => {
    let catalog = [simpleTool("keep"), simpleTool("drop_me"), simpleTool("turns_bad")];
    const server = await serve(() => catalog);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    const { source: host } = await hostWith([simpleTool("host_tool")]);
    const other = await serve(() => [simpleTool("other_tool")]);
    const { source: otherSource } = await connectionTo(other.url);
    await api.sources.checkNow({ id: otherSource.id });

    const identity = await api.identities.create({ name: identityName() });
    for (const s of [source, host, otherSource])
      await api.identities.assignSource({ identityId: identity.id, sourceId: s.id });

    catalog = [
      simpleTool("keep"),
      simpleTool("turns_bad", { inputSchema: { type: "object", required: ["__tenant"] } }),
    ];
    await api.sources.checkNow({ id: source.id });
    await api.identities.unassignSource({ identityId: identity.id, sourceId: otherSource.id });
    await sweepSilentHosts(new Date(Date.now() + 61_000));

    const losses = await api.identities.losses({ id: identity.id, include: "losses" });
    const seen = losses.items.map((l) => `${l.reason}:${l.nativeName ?? l.sourceName}:${l.toolCount}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        "removed:drop_me:1",
        "became_incompatible:turns_bad:1",
        `source_unassigned:${otherSource.name}:1`,
        "withdrawn:host_tool:1",
      ]),
    );
    expect(losses.items).toHaveLength(4);
    expect(losses.items.find((l) => l.reason === "became_incompatible")?.detail).toBe("schema_unsupported");
    expect(losses.items.every((l) => l.direction === "lost" && l.at instanceof Date && l.reasonText.length > 0)).toBe(
      true,
    );
    expect(losses.summary.lostTools).toBe(4);
    // The totals count both ways whatever the list shows, and a Tool still in the catalog links to it.
    expect(losses.summary.gainedTools).toBeGreaterThan(0);
    expect(losses.items.find((l) => l.nativeName === "turns_bad")?.toolId).toEqual(expect.any(String));
    expect(losses.items.find((l) => l.nativeName === "drop_me")?.toolId).toBeNull();

    // What it holds now agrees.
    const held = (await api.identities.holdings({ id: identity.id })).items.map((t) => t.nativeName);
    expect(held).toEqual(["keep"]);

    // Gains are there too when asked for: the initial catalog arrived through assignments.
    const all = await api.identities.losses({ id: identity.id });
    expect(all.items.filter((i) => i.reason === "source_assigned")).toHaveLength(3);
  });

  it("show a deleted Source's Tools as lost, and nothing from before an assignment", async () => {
    let catalog = [simpleTool("old")];
    const server = await serve(() => catalog);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    catalog = []; // removed before anyone held it
    await api.sources.checkNow({ id: source.id });
    catalog = [simpleTool("fresh")];
    await api.sources.checkNow({ id: source.id });
    const identity = await api.identities.create({ name: identityName() });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    await api.sources.delete({ id: source.id });
    const losses = await api.identities.losses({ id: identity.id, include: "losses" });
    expect(losses.items.map((l) => `${l.reason}:${l.nativeName}`)).toEqual(["source_deleted:fresh"]);
    expect((await api.identities.get({ id: identity.id })).sources).toEqual([]);
  });

  it("refuse an assignment that would cross the budget, saying by how much, after previewing the projected size", async () => {
    const api = await operatorApi();
    const { source: big } = await hostWith(toolsOfModelBytes(700, 4000, "big"));
    const { source: more } = await hostWith(toolsOfModelBytes(400, 4000, "more"));
    const identity = await api.identities.create({ name: identityName() });
    await api.identities.assignSource({ identityId: identity.id, sourceId: big.id });

    const preview = await api.identities.previewAssignment({ identityId: identity.id, sourceId: more.id });
    expect(preview.addsBytes).toBe(400 * 4000);
    expect(preview.projected.usedBytes).toBe(1100 * 4000);
    expect(preview.fits).toBe(false);
    expect(preview.projected.overByBytes).toBe(1100 * 4000 - BUDGET);

    await expect(api.identities.assignSource({ identityId: identity.id, sourceId: more.id })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      cause: { code: "BUDGET_EXCEEDED", details: { overByBytes: 1100 * 4000 - BUDGET, projectedBytes: 1100 * 4000 } },
    });
    expect((await api.identities.get({ id: identity.id })).sources.map((s) => s.sourceId)).toEqual([big.id]);

    // Instructions count too.
    await expect(
      api.identities.update({ id: identity.id, instructions: "i".repeat(BUDGET - 700 * 4000 + 1) }),
    ).rejects.toMatchObject({ cause: { code: "BUDGET_EXCEEDED", details: { overByBytes: 1 } } });
    await api.identities.update({ id: identity.id, instructions: "i".repeat(BUDGET - 700 * 4000) });
    expect((await api.identities.get({ id: identity.id })).budget).toMatchObject({
      usedBytes: BUDGET,
      freeBytes: 0,
      overByBytes: 0,
    });
  });

  it("become Over budget when a catalog grows, say what pushed them and which unassignment helps, and recover when it shrinks", async () => {
    const api = await operatorApi();
    const base = await hostWith(toolsOfModelBytes(600, 4000, "base"));
    const growing = await hostWith(toolsOfModelBytes(100, 4000, "grow"));
    const identity = await api.identities.create({ name: identityName() });
    await api.identities.assignSource({ identityId: identity.id, sourceId: base.source.id });
    await api.identities.assignSource({ identityId: identity.id, sourceId: growing.source.id });
    expect((await api.identities.get({ id: identity.id })).state).toBe("ok");

    await growing.register(toolsOfModelBytes(450, 4000, "grow"));
    const over = await api.identities.get({ id: identity.id });
    expect(over.state).toBe("over_budget");
    expect(over.budget.overByBytes).toBe(1050 * 4000 - BUDGET);
    expect(over.overBudget?.pushedBy).toMatchObject({ sourceId: growing.source.id, changedTools: 350 });
    expect(over.overBudget?.remedies.map((r) => r.sourceId)).toEqual([growing.source.id, base.source.id]);
    expect((await api.identities.list({ state: "over_budget" })).map((i) => i.id)).toContain(identity.id);
    const sourcePage = await api.sources.get({ id: growing.source.id });
    expect(sourcePage.identities.overBudget).toEqual([
      { id: identity.id, name: identity.name, overByBytes: over.budget.overByBytes },
    ]);

    await growing.register(toolsOfModelBytes(100, 4000, "grow"));
    expect((await api.identities.get({ id: identity.id })).state).toBe("ok");
    expect((await api.sources.get({ id: growing.source.id })).identities.overBudget).toEqual([]);
  });

  it("refuse the 1,001st identity on one MCP Connection", async () => {
    const server = await serve(() => [simpleTool("shared")]);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    const db = await getDb();
    const ceiling = LIMITS.IDENTITIES_PER_CONNECTION.value;
    // Set-up in bulk; the ceiling itself is exercised through the API below.
    const ids = Array.from({ length: ceiling - 1 }, (_, i) => `bulk-${i}-${source.id}`);
    await db.agentIdentity.createMany({ data: ids.map((id) => ({ id, name: id })) });
    await db.sourceAssignment.createMany({ data: ids.map((identityId) => ({ identityId, sourceId: source.id })) });

    const thousandth = await api.identities.create({ name: identityName() });
    await api.identities.assignSource({ identityId: thousandth.id, sourceId: source.id });
    const extra = await api.identities.create({ name: identityName() });
    await expect(api.identities.assignSource({ identityId: extra.id, sourceId: source.id })).rejects.toMatchObject({
      cause: { code: "TOO_MANY_IDENTITIES", details: { measured: ceiling, limit: ceiling } },
      message: expect.stringContaining("1,000"),
    });
    expect((await api.sources.get({ id: source.id })).identities).toMatchObject({ assigned: ceiling, limit: ceiling });
  });

  it("issue agent tokens shown once, stored hashed, and revocable", async () => {
    const api = await operatorApi();
    const identity = await api.identities.create({ name: identityName() });
    const { token, value } = await api.identities.createToken({ identityId: identity.id, name: "laptop" });
    expect(value).toMatch(/^qm_agent_/);
    const { authenticateAgentToken } = await import("@/server/domain/identities/tokens");
    expect(await authenticateAgentToken(value)).toMatchObject({ kind: "agent", identityId: identity.id });
    const listed = await api.identities.tokens({ id: identity.id });
    expect(JSON.stringify(listed)).not.toContain(value);
    expect(listed[0]?.lastUsedAt).toBeInstanceOf(Date);
    await api.identities.revokeToken({ id: token.id });
    expect(await authenticateAgentToken(value)).toBeNull();
  });
});
