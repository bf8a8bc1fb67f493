import { describe, expect, it } from "vitest";
import { confusablePairs } from "./confusable";
import { terms } from "./text";
import { ToolIndex } from "./tool-index";
import type { ToolText } from "./tool-text";

const invoice: ToolText = {
  name: "create_invoice",
  title: "Create invoice",
  description: "Create a draft invoice for a customer, in their billing currency.",
  inputSchema: {
    type: "object",
    properties: {
      customerId: { type: "string", description: "The customer to bill." },
      amount: { type: "number", description: "Total in minor units." },
      currency: { type: "string", description: "ISO 4217 code." },
    },
  },
};
const weather: ToolText = {
  name: "forecast",
  description: "Tomorrow's weather: temperature, wind and rain for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
};
const deploy: ToolText = { name: "deploy_service", description: "Roll out a container image to production." };

describe("terms", () => {
  it("splits identifiers, stems and folds synonyms", () => {
    expect(terms("get_memories")).toEqual(["get", "memori"]);
    expect(terms("createInvoice")).toEqual(["creat", "invoic"]);
    // "fetch" and "retrieve" are counted as "get"; "the" is a stop word.
    expect(terms("Fetch the retrieved memories")).toEqual(["get", "get", "memori"]);
  });
});

describe("ToolIndex", () => {
  it("rates identical descriptions 1.0 and disjoint ones 0", () => {
    const index = new ToolIndex([invoice, { ...invoice, name: invoice.name }, weather, deploy]);
    expect(index.similarity(0, 1)).toBeCloseTo(1, 10);
    expect(index.similarity(0, 2)).toBe(0);
    expect(index.similarity(2, 3)).toBe(0);
  });

  it("rates a Tool's overlap with a reworded copy between the two", () => {
    const reworded: ToolText = {
      name: "make_bill",
      description: "Generate a bill for a client in the billing currency.",
    };
    const index = new ToolIndex([invoice, reworded, weather, deploy]);
    const s = index.similarity(0, 1);
    expect(s).toBeGreaterThan(0.1);
    expect(s).toBeLessThan(0.9);
  });

  it("reads one Tool published by two Sources as a near-copy, though the model sees it under two names", () => {
    const copy: ToolText = { ...invoice, name: "billing_create_invoice", nativeName: "create_invoice" };
    const index = new ToolIndex([invoice, copy, weather, deploy]);
    expect(index.similarity(0, 1)).toBeGreaterThan(0.9);
    expect(index.rank("billing invoice")[0]?.index).toBe(1);
  });

  it("ranks the same whatever order the parameters come in", () => {
    const props = (invoice.inputSchema as { properties: Record<string, unknown> }).properties;
    const reversed: ToolText = {
      ...invoice,
      inputSchema: { type: "object", properties: Object.fromEntries(Object.entries(props).reverse()) },
    };
    const a = new ToolIndex([invoice, weather, deploy]);
    const b = new ToolIndex([reversed, weather, deploy]);
    for (const query of ["bill a customer", "currency of the invoice", "rain in Paris"]) {
      expect(b.rank(query)).toEqual(a.rank(query));
    }
    expect([...b.vectors[0]!.weights]).toEqual([...a.vectors[0]!.weights]);
  });

  it("ranks the Tool a request is about first, through synonyms", () => {
    const index = new ToolIndex([invoice, weather, deploy]);
    expect(index.rank("I need to bill a customer")[0]?.index).toBe(0);
    expect(index.rank("will it rain in Oslo tomorrow")[0]?.index).toBe(1);
    expect(index.rank("roll out the new image")[0]?.index).toBe(2);
    expect(index.rank("translate this poem")).toEqual([]);
  });

  it("names the words two Tools share, most telling first", () => {
    const index = new ToolIndex([invoice, { ...invoice, name: "create_invoice_v2" }, weather]);
    const shared = index.sharedTerms(0, 1).map((s) => s.term);
    expect(shared).toContain("invoic");
    expect(shared).not.toContain("v2");
  });
});

describe("confusablePairs", () => {
  // Tools over a small vocabulary, so many pairs share words and some are near-copies.
  function catalog(n: number): ToolText[] {
    const verbs = ["create", "list", "delete", "archive", "export", "merge", "share", "rename"];
    const things = ["invoice", "customer", "ticket", "report", "order", "payment", "contract", "refund", "shipment"];
    const extras = ["quickly", "in bulk", "for auditors", "with attachments", "as a draft", "by region", "daily"];
    return Array.from({ length: n }, (_, i) => {
      const verb = verbs[i % verbs.length];
      const thing = things[Math.floor(i / verbs.length) % things.length];
      const extra = extras[Math.floor(i / 7) % extras.length];
      return { name: `${verb}_${thing}_${i}`, description: `${verb} a ${thing} ${extra}. Source ${i % 13}.` };
    });
  }

  it("finds exactly the pairs a comparison of every pair finds above the threshold", () => {
    const index = new ToolIndex(catalog(300));
    for (const threshold of [0, 0.3, 0.5, 0.8]) {
      const all: { a: number; b: number; similarity: number }[] = [];
      for (let a = 0; a < index.size; a++)
        for (let b = a + 1; b < index.size; b++) {
          const similarity = index.similarity(a, b);
          if (similarity >= threshold && similarity > 0) all.push({ a, b, similarity });
        }
      all.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
      const found = confusablePairs(index, { threshold, limit: 50 });
      expect(found.pairs.map((p) => p.similarity)).toEqual(all.slice(0, 50).map((p) => p.similarity));
      if (threshold >= 0.5) expect(found.candidates).toBeLessThan((index.size * (index.size - 1)) / 2);
    }
  });

  it("puts two near-identical Tools first", () => {
    const tools = [
      ...catalog(50),
      { name: "refund_order", description: "Refund a paid order to the card it was paid with." },
      { name: "refund_purchase", description: "Refund a paid order back to the card it was paid with." },
    ];
    const found = confusablePairs(new ToolIndex(tools), { threshold: 0.3, limit: 5 });
    expect(found.pairs[0]).toMatchObject({ a: 50, b: 51 });
    expect(found.pairs[0]?.similarity).toBeGreaterThan(0.6);
  });
});
