/**
 * Write-time screening measured on a labelled set (eval/fixtures/memory-screening.json):
 * precision is the share of flagged bodies that were planted, recall the share of planted
 * bodies that were flagged. The fixture carries its own floors, so a looser or stricter rule
 * that costs either figure fails the tests.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { screenMemoryBody } from "../server/domain/memory/screening";

export interface ScreeningCase {
  label: "benign" | "planted";
  form?: string;
  /** "heldout": written after the rules, which were not tuned on them. */
  split?: "development" | "heldout";
  body: string;
}
export interface ScreeningFixture {
  allowedHosts: string[];
  /** Per split: development (the rules were shaped on it) and heldout (they were not). */
  floors: Record<"development" | "heldout", { precision: number; recall: number }>;
  cases: ScreeningCase[];
}

export function loadScreeningFixture(): ScreeningFixture {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures/memory-screening.json"), "utf8"));
}

export function measureScreening(fixture: ScreeningFixture) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const falsePositives: { body: string; rules: string[] }[] = [];
  const missed: { body: string; form?: string }[] = [];
  const byForm = new Map<string, { caught: number; total: number }>();
  for (const c of fixture.cases) {
    const flags = screenMemoryBody(c.body, { allowedHosts: fixture.allowedHosts });
    if (c.label === "planted") {
      const form = byForm.get(c.form ?? "other") ?? { caught: 0, total: 0 };
      form.total++;
      if (flags.length) {
        tp++;
        form.caught++;
      } else {
        fn++;
        missed.push({ body: c.body, form: c.form });
      }
      byForm.set(c.form ?? "other", form);
    } else if (flags.length) {
      fp++;
      falsePositives.push({ body: c.body, rules: flags.map((f) => f.rule) });
    }
  }
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return {
    precision,
    recall,
    benign: fixture.cases.filter((c) => c.label === "benign").length,
    planted: tp + fn,
    falsePositives,
    missed,
    byForm: Object.fromEntries(byForm),
  };
}

export function screeningReport(m: ReturnType<typeof measureScreening>, label = "screening"): string {
  const pct = (x: number) => x.toFixed(3);
  return [
    `${label}: precision ${pct(m.precision)}, recall ${pct(m.recall)} (${m.benign} benign, ${m.planted} planted)`,
    `  by form: ${Object.entries(m.byForm)
      .map(([f, v]) => `${f} ${v.caught}/${v.total}`)
      .join(", ")}`,
    ...m.falsePositives.map((f) => `  false positive [${f.rules.join(", ")}]: ${f.body.slice(0, 80)}`),
    ...m.missed.map((f) => `  missed (${f.form}): ${f.body.slice(0, 80)}`),
  ].join("\n");
}

export const splitOf = (fixture: ScreeningFixture, split: "development" | "heldout"): ScreeningFixture => ({
  ...fixture,
  cases: fixture.cases.filter((c) => (c.split ?? "development") === split),
});

/** The figures on the development cases, then on the held-out ones: the honest estimate. */
export function screeningReports(fixture: ScreeningFixture): string {
  return [
    screeningReport(measureScreening(splitOf(fixture, "development")), "screening (development)"),
    screeningReport(measureScreening(splitOf(fixture, "heldout")), "screening (held out)"),
  ].join("\n");
}
