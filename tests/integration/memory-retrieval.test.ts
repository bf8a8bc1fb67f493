/**
 * Retrieval quality is held by floors: our own labelled fixture is written into one scope
 * per conversation and every question searched; recall and MRR must stay at or above what
 * eval/fixtures/memory-floors.json records (npm run eval:memory measures the full LoCoMo set).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadFixture } from "@/eval/locomo";
import { evaluateRetrieval } from "@/eval/memory-eval";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

const fixtures = path.resolve(import.meta.dirname, "../../eval/fixtures");
const floors = JSON.parse(readFileSync(path.join(fixtures, "memory-floors.json"), "utf8")) as Record<
  "recallAt5" | "recallAt10" | "mrr",
  number
>;

describe("memory search quality", () => {
  it("keeps recall@5, recall@10 and MRR on our fixture at or above the recorded floors, with no hit from another scope", async () => {
    const report = await evaluateRetrieval(loadFixture(path.join(fixtures, "memory-retrieval.json")));
    expect(report.crossScopeHits).toBe(0);
    const below = (Object.keys(floors) as (keyof typeof floors)[])
      .filter((metric) => report[metric] < floors[metric])
      .map((metric) => `${metric} ${report[metric].toFixed(3)} < floor ${floors[metric]}`);
    expect(below).toEqual([]);
  }, 300_000);
});
