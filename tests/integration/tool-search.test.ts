/**
 * find_tools' ranking is held by floors: our own small fixture (eval/fixtures/tool-search.json)
 * is served by a real MCP Connection, held by one Agent Identity, and every request sent
 * through /mcp find_tools over HTTP; recall and MRR must stay at or above
 * eval/fixtures/tool-search-floors.json (npm run eval:tool-search measures the BFCL set).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Bm25 } from "@/eval/tool-search/bm25";
import { cutQuestion, evaluateToolSearch, formatToolSearchReport } from "@/eval/tool-search/evaluate";
import { loadToolSearchFixture } from "@/eval/tool-search/load";
import { builtInTools } from "@/server/mcp/tools/registry";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

const fixtures = path.resolve(import.meta.dirname, "../../eval/fixtures");
const floors = JSON.parse(readFileSync(path.join(fixtures, "tool-search-floors.json"), "utf8")) as Record<
  "recallAt1" | "recallAt5" | "recallAt10" | "mrr",
  number
>;

describe("tool search quality", () => {
  it("keeps recall@1/@5/@10 and MRR of /mcp find_tools on our fixture at or above the recorded floors", async () => {
    const set = loadToolSearchFixture(path.join(fixtures, "tool-search.json"));
    const report = await evaluateToolSearch(set.tools, set.questions);
    const below = (Object.keys(floors) as (keyof typeof floors)[])
      .filter((metric) => report[metric] < floors[metric])
      .map((metric) => `${metric} ${report[metric].toFixed(3)} < floor ${floors[metric]}`);
    expect(below, JSON.stringify(report.missed, null, 1)).toEqual([]);
    // Every Tool is listed under exposure all, beside the built-ins; a selection with nothing
    // pinned or used lists the built-ins alone.
    const { all, selection, auto } = report.listings;
    expect(all).toMatchObject({ mode: "all", tools: set.tools.length + builtInTools.length });
    expect(selection).toMatchObject({ mode: "selection", tools: builtInTools.length });
    expect(selection.bytes).toBeLessThan(all.bytes);
    // The fixture's Tools fit the default listing budget, so auto lists them all.
    expect(auto).toEqual(all);
    expect(formatToolSearchReport(report)).toMatch(/\| selection \| a selection \| \d+ \|/);
  }, 120_000);

  it("the BM25 baseline ranks by name parts and description, and long requests are cut at a word", () => {
    const bm25 = new Bm25([
      { name: "createJiraIssue", description: "Open a ticket." },
      { name: "send_email", description: "Send a message." },
    ]);
    expect(bm25.rank("jira issue please", 10)).toEqual(["createJiraIssue"]);
    expect(bm25.rank("nothing matches", 10)).toEqual([]);
    expect(cutQuestion("alpha beta gamma", 12)).toBe("alpha beta");
    expect(cutQuestion("  short  ", 12)).toBe("short");
  });
});
