/**
 * find_tools' index is kept per Source: a publication re-indexes that Source only, an
 * (un)assignment re-indexes nothing, the ranking is the one a single index over every held
 * Tool gives, and a large Source answers from its previous segment while it is rebuilt,
 * never with a Tool the identity no longer holds.
 */
import { describe, expect, it } from "vitest";
import { heldToolsWhere } from "@/server/domain/identities/holdings";
import { confusablePairs } from "@/server/domain/tool-selection/confusable";
import { dropToolIndexes, loadTools } from "@/server/domain/tool-selection/indexes";
import { dropSearchSegments, segmentBuildCount, warmSearchSegments } from "@/server/domain/tool-selection/segments";
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

  it("moves near-copies below a different Tool across Sources, as one index over all of them would", async () => {
    const song = (name: string, description: string) => ({
      name,
      description,
      inputSchema: { type: "object", properties: { artist: { type: "string" }, song: { type: "string" } } },
    });
    const a = await hostWith([
      song("play_song", "Play a song by an artist on a speaker."),
      song("play_song_2", "Play a song by an artist on a device."),
    ]);
    const b = await hostWith([
      song("play_song_3", "Play a song by an artist on a player."),
      song("lookup_songs", "Look up the songs of an artist, a genre or a year."),
    ]);
    const { identity } = await identityHolding(a.source.id, b.source.id);
    const whole = new ToolIndex(await loadTools(heldToolsWhere(identity.id)));
    const expected = ["play_song", "lookup_songs", "play_song_2", "play_song_3"];
    expect(whole.search("songs by an artist").map((r) => whole.tools[r.index]?.nativeName)).toEqual(expected);
    expect(await names(identity.id, "songs by an artist")).toEqual(expected);
    // The copies scored higher than lookup_songs: only their likeness moved them.
    const ranked = await rankHeldTools(identity.id, "songs by an artist", 10);
    expect(ranked.tools[2]?.score).toBeGreaterThan(ranked.tools[1]?.score as number);
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

describe("a fresh instance and the confusable pairs", () => {
  it("warms every held Source's segment at start, so the first search builds none", async () => {
    const a = await hostWith([tool("send_invoice", "Email an invoice to its customer.")]);
    const b = await hostWith([tool("ship_parcel", "Book a courier for a parcel.")]);
    const { identity } = await identityHolding(a.source.id, b.source.id);
    // Without warming, the first search on a fresh instance builds its Sources' segments…
    dropSearchSegments();
    let before = segmentBuildCount();
    expect(await names(identity.id, "email the invoice")).toEqual(["send_invoice"]);
    expect(segmentBuildCount() - before).toBe(2);
    // …after it, none: they were built before any agent asked.
    dropSearchSegments();
    expect(await warmSearchSegments()).toBeGreaterThanOrEqual(2);
    before = segmentBuildCount();
    expect(await names(identity.id, "email the invoice")).toEqual(["send_invoice"]);
    expect(await names(identity.id, "courier")).toEqual(["ship_parcel"]);
    expect(segmentBuildCount()).toBe(before);
  });

  it("builds an identity's pairs from its Sources' segments: a publication re-reads that Source only, and the pairs are those of one index over every held Tool", async () => {
    const refund = tool("refund_order", "Refund a paid order to the card it was paid with.");
    const a = await hostWith([refund, tool("forecast", "Tomorrow's weather for a city.")]);
    const b = await hostWith([refund, tool("page_oncall", "Wake the on-call engineer.")]);
    const { api, identity } = await identityHolding(a.source.id, b.source.id);
    const fromScratch = async () => {
      const whole = new ToolIndex(await loadTools(heldToolsWhere(identity.id)));
      return confusablePairs(whole, { threshold: LIMITS.CONFUSABLE_MIN_SIMILARITY.value, limit: 50 }).pairs.map((p) => [
        whole.tools[p.a]?.id,
        whole.tools[p.b]?.id,
        p.similarity,
      ]);
    };
    const pairsOf = (view: Awaited<ReturnType<typeof api.identities.confusable>>) =>
      view.pairs.map((p) => [p.a.id, p.b.id, p.similarity]);
    dropSearchSegments();
    dropToolIndexes();
    await names(identity.id, "refund");
    let before = segmentBuildCount();
    const first = await api.identities.confusable({ id: identity.id });
    // find_tools already indexed both Sources: the view re-reads neither.
    expect(segmentBuildCount()).toBe(before);
    expect(first.pairs).toHaveLength(1);
    expect(pairsOf(first)).toEqual(await fromScratch());

    await b.register([refund, tool("page_oncall", "Wake the on-call engineer."), tool("refund_fee", "Refund a fee.")]);
    before = segmentBuildCount();
    const after = await api.identities.confusable({ id: identity.id });
    expect(after.cached).toBe(false);
    expect(after.tools).toBe(5);
    expect(segmentBuildCount() - before).toBe(1);
    const expected = await fromScratch();
    expect(pairsOf(after).map((p) => p.slice(0, 2))).toEqual(expected.map((p) => p.slice(0, 2)));
    for (const [i, p] of pairsOf(after).entries()) expect(p[2]).toBeCloseTo(expected[i]?.[2] as number, 12);
  });
});
