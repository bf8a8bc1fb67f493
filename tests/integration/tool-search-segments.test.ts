/**
 * find_tools' index is kept per Source: a publication re-indexes that Source only, an
 * (un)assignment re-indexes nothing, the ranking is the one a single index over every held
 * Tool gives, and a large Source answers from its previous segment while it is rebuilt,
 * never with a Tool the identity no longer holds.
 */
import { describe, expect, it } from "vitest";
import { heldToolsWhere } from "@/server/domain/identities/holdings";
import { loadTools } from "@/server/domain/tool-selection/indexes";
import { dropSearchSegments } from "@/server/domain/tool-selection/segments";
import { ToolIndex } from "@/server/domain/tool-selection/tool-index";
import { rankHeldTools } from "@/server/domain/tool-selection/views";
import { LIMITS } from "@/server/limits";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith } from "../helpers/hosts";

withTestDatabase();

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object" } });
const names = async (identityId: string, query: string) =>
  (await rankHeldTools(identityId, query, 10)).tools.map((t) => t.tool.nativeName);
const found = async (identityId: string, query: string) => (await names(identityId, query)).sort();

let n = 0;
async function identityHolding(...sourceIds: string[]) {
  const api = await operator();
  const identity = await api.identities.create({ name: `segments-${++n}-${Date.now()}` });
  for (const sourceId of sourceIds) await api.identities.assignSource({ identityId: identity.id, sourceId });
  return { api, identity };
}

describe("find_tools' per-Source index", () => {
  it("ranks an identity's Sources as one corpus, exactly as one index over all its Tools would", async () => {
    const a = await hostWith([
      tool("create_invoice", "Create a draft invoice for a customer."),
      tool("refund_order", "Refund a paid order to the card it was paid with."),
      tool("list_orders", "List a customer's orders, newest first."),
    ]);
    const b = await hostWith([
      tool("forecast", "Tomorrow's weather for a city."),
      tool("order_status", "Where an order is: paid, shipped or delivered."),
      tool("invoice_pdf", "The PDF of an invoice, for a customer to download."),
    ]);
    const { identity } = await identityHolding(a.source.id, b.source.id);
    const whole = new ToolIndex(await loadTools(heldToolsWhere(identity.id)));
    for (const query of ["invoice for a customer", "where is my order", "refund", "weather in Paris tomorrow"]) {
      // find_tools keeps those scoring at least 0.4 of the best.
      const all = whole.search(query);
      const kept = all.filter((r) => r.score >= (all[0]?.score ?? 0) * 0.4);
      const ranked = await rankHeldTools(identity.id, query, 10);
      expect(
        ranked.tools.map((t) => t.tool.nativeName),
        query,
      ).toEqual(kept.map((r) => whole.tools[r.index]?.nativeName));
      for (const [i, t] of ranked.tools.entries()) expect(t.score).toBeCloseTo(kept[i]?.score as number, 9);
      expect(ranked.total).toBe(kept.length);
    }
  });

  it("sees a publication and an unassignment on the next search", async () => {
    const a = await hostWith([tool("lookup_customer", "Find a customer by email.")]);
    const b = await hostWith([tool("lookup_order", "Find an order by number.")]);
    const { api, identity } = await identityHolding(a.source.id, b.source.id);
    expect(await found(identity.id, "lookup")).toEqual(["lookup_customer", "lookup_order"]);
    await a.register([
      tool("lookup_customer", "Find a customer by email."),
      tool("lookup_invoice", "Find an invoice."),
    ]);
    expect(await found(identity.id, "lookup")).toEqual(["lookup_customer", "lookup_invoice", "lookup_order"]);
    await api.identities.unassignSource({ identityId: identity.id, sourceId: b.source.id });
    expect(await found(identity.id, "lookup")).toEqual(["lookup_customer", "lookup_invoice"]);
    // The exact name still comes first, however it scores.
    expect((await names(identity.id, "lookup_invoice"))[0]).toBe("lookup_invoice");
  });

  it("answers from a large Source's previous segment while it is rebuilt, without Tools it dropped", async () => {
    const stale = LIMITS.TOOL_SEARCH_STALE_SEGMENT_TOOLS as { value: number };
    const before = stale.value;
    stale.value = 2;
    try {
      dropSearchSegments();
      const big = await hostWith([
        tool("archive_ticket", "Archive a closed ticket."),
        tool("archive_invoice", "Archive a paid invoice."),
        tool("archive_report", "Archive a monthly report."),
      ]);
      const { identity } = await identityHolding(big.source.id);
      expect(await names(identity.id, "archive")).toHaveLength(3);
      await big.register([
        tool("archive_ticket", "Archive a closed ticket."),
        tool("archive_report", "Archive a monthly report."),
        tool("archive_project", "Archive a finished project."),
      ]);
      // Dropped: never offered again, even by the segment still answering.
      expect(await names(identity.id, "archive")).not.toContain("archive_invoice");
      await expect.poll(() => names(identity.id, "archive project"), { timeout: 10_000 }).toContain("archive_project");
      expect(await found(identity.id, "archive")).toEqual(["archive_project", "archive_report", "archive_ticket"]);
    } finally {
      stale.value = before;
    }
  });
});
