/**
 * Confusable Tools for operators, a Tool's nearest neighbours and find_tools' ranking, over
 * a real database with Tools published by SDK Tool Hosts.
 */
import { describe, expect, it } from "vitest";
import { rankHeldTools } from "@/server/domain/tool-selection/views";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith } from "../helpers/hosts";

withTestDatabase();

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});
const REFUND = "Refund a paid order to the card it was paid with; partial refunds take an amount.";
const distinct = [
  tool("create_invoice", "Create a draft invoice for a customer, in their billing currency.", {
    customerId: { type: "string", description: "The customer to bill." },
  }),
  tool("forecast", "Tomorrow's weather for a city: temperature, wind and rain."),
  tool("deploy_service", "Roll out a container image to production, one zone at a time."),
  tool("page_oncall", "Wake the on-call engineer with a page that says what broke."),
];

let n = 0;
async function identityHolding(...sourceIds: string[]) {
  const api = await operator();
  const identity = await api.identities.create({ name: `selection-${++n}-${Date.now()}` });
  for (const sourceId of sourceIds) await api.identities.assignSource({ identityId: identity.id, sourceId });
  return { api, identity };
}

describe("confusable Tools", () => {
  it("flags two near-identical Tools of an identity with both descriptions, what they share and a fix, until its holdings change", async () => {
    const shop = await hostWith([...distinct, tool("refund_order", REFUND, { amount: { type: "number" } })]);
    const payments = await hostWith([tool("refund_order", REFUND, { amount: { type: "number" } })]);
    const { api, identity } = await identityHolding(shop.source.id, payments.source.id);

    const view = await api.identities.confusable({ id: identity.id });
    expect(view.tools).toBe(6);
    const [top] = view.pairs;
    // Not quite 1: a model sees the second under a name that carries its Source's.
    expect(top?.similarity).toBeGreaterThan(0.9);
    expect(top?.level).toBe("high");
    expect([top?.a.nativeName, top?.b.nativeName]).toEqual(["refund_order", "refund_order"]);
    expect(top?.a.description).toBe(REFUND);
    expect(top?.b.description).toBe(REFUND);
    expect(top?.shared).toEqual(expect.arrayContaining(["refund"]));
    expect(top?.fix).toMatch(/two Sources/);
    // Distinct Tools never make a pair.
    expect(view.pairs.every((p) => p.similarity >= view.threshold)).toBe(true);
    expect(view.pairs).toHaveLength(1);
    expect(view.heatMap.tools.map((t) => t.id).sort()).toEqual([top?.a.id, top?.b.id].sort());
    expect(view.heatMap.similarity[0]?.[1]).toBeCloseTo(top?.similarity ?? 0, 10);

    // Cached for this version of the holdings…
    expect((await api.identities.confusable({ id: identity.id })).cached).toBe(true);
    // …and recomputed when they change: the payments host now describes its Tool apart.
    await payments.register([
      tool("refund_to_wallet", "Credit store wallet balance instead of money back; no card involved.", {
        walletId: { type: "string" },
      }),
    ]);
    const after = await api.identities.confusable({ id: identity.id });
    expect(after.version).not.toBe(view.version);
    expect(after.cached).toBe(false);
    expect(after.pairs).toEqual([]);
  });

  it("refuses an identity that does not exist", async () => {
    const api = await operator();
    await expect(api.identities.confusable({ id: "no-such-identity" })).rejects.toThrow(/Agent Identity/);
  });
});

describe("a Tool's nearest neighbours", () => {
  it("lists the catalog's Tools that read most like it, its twin first, and compares a Tool no model is offered too", async () => {
    const a = await hostWith([tool("archive_ticket", "Archive a closed support ticket so it leaves the queue.")]);
    const b = await hostWith([
      tool("archive_ticket", "Archive a closed support ticket so it leaves the queue."),
      tool("escalate_ticket", "Escalate a support ticket to the second line."),
      // Incompatible: a reserved argument name.
      tool("close_ticket", "Close a support ticket and archive it.", { __secret: { type: "string" } }),
    ]);
    const api = await operator();
    const tools = await api.catalog.listTools({ sourceId: b.source.id });
    const twin = tools.items.find((t) => t.nativeName === "archive_ticket");
    const offline = tools.items.find((t) => t.nativeName === "close_ticket");
    expect(offline?.compatibility.state).not.toBe("compatible");

    const near = await api.catalog.neighbours({ id: twin?.id as string });
    expect(near.offered).toBe(true);
    expect(near.neighbours[0]?.tool.sourceName).toBe(a.source.name);
    expect(near.neighbours[0]?.similarity).toBeGreaterThan(0.9);
    expect(near.neighbours[0]?.level).toBe("high");
    expect(near.neighbours.map((x) => x.tool.id)).not.toContain(twin?.id);

    const fromOffline = await api.catalog.neighbours({ id: offline?.id as string });
    expect(fromOffline.offered).toBe(false);
    expect(fromOffline.neighbours.map((x) => x.tool.nativeName).slice(0, 2)).toEqual([
      "archive_ticket",
      "archive_ticket",
    ]);
    await expect(api.catalog.neighbours({ id: "no-such-tool" })).rejects.toThrow(/Tool/);
  });
});

describe("find_tools ranking", () => {
  it("ranks the identity's Tools against a request in an agent's words, best first", async () => {
    const host = await hostWith(distinct);
    const { identity } = await identityHolding(host.source.id);
    const ranked = await rankHeldTools(identity.id, "I need to bill a customer", 10);
    expect(ranked.tools[0]?.tool.nativeName).toBe("create_invoice");
    expect((await rankHeldTools(identity.id, "will it rain in Oslo", 10)).tools.map((t) => t.tool.nativeName)).toEqual([
      "forecast",
    ]);
    expect(await rankHeldTools(identity.id, "translate a poem", 10)).toEqual({ total: 0, tools: [] });
  });
});
