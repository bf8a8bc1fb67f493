/**
 * The tool-selection eval (PRODUCT.md §5): how well a set of Tool descriptions lets a
 * reader pick the right Tool for what an agent says it needs. Three numbers:
 * - selection_accuracy_at_1: share of utterances whose intended Tool scores highest;
 * - selection_margin: mean of (intended Tool's score − best other Tool's score), so a
 *   right pick by a hair counts less than a clear one, and a wrong pick counts against;
 * - max_description_overlap: the largest cosine between two Tools, naming the pair.
 * Floors (and the overlap ceiling) turn it into a gate whose failures name the utterance
 * or pair to fix.
 */
import { ToolIndex } from "./tool-index";
import type { ToolText } from "./tool-text";

export interface Utterance {
  /** The Tool an agent saying this should pick. */
  tool: string;
  text: string;
}

export interface Floors {
  selection_accuracy_at_1: number;
  selection_margin: number;
  /** A ceiling, not a floor. */
  max_description_overlap: number;
}

export interface UtteranceResult {
  text: string;
  expected: string;
  chosen: string;
  /** Intended Tool's score minus the best other Tool's. */
  margin: number;
  runnerUp: string;
}

export interface PairOverlap {
  a: string;
  b: string;
  similarity: number;
  shared: string[];
}

export interface SelectionReport {
  tools: number;
  utterances: number;
  selection_accuracy_at_1: number;
  selection_margin: number;
  max_description_overlap: number;
  /** Every pair, most similar first. */
  pairs: PairOverlap[];
  results: UtteranceResult[];
}

export function evaluateSelection(tools: readonly ToolText[], utterances: readonly Utterance[]): SelectionReport {
  const names = tools.map((t) => t.name);
  const unknown = utterances.filter((u) => !names.includes(u.tool));
  if (unknown.length)
    throw new Error(
      `utterances name Tools the set does not hold: ${[...new Set(unknown.map((u) => u.tool))].join(", ")}`,
    );
  const index = new ToolIndex(tools);
  const results = utterances.map((u): UtteranceResult => {
    const scores = index.scoresFor(index.queryVector(u.text));
    const right = names.indexOf(u.tool);
    let best = -1;
    let bestWrong = -1;
    for (let i = 0; i < scores.length; i++) {
      if (best < 0 || (scores[i] as number) > (scores[best] as number)) best = i;
      if (i !== right && (bestWrong < 0 || (scores[i] as number) > (scores[bestWrong] as number))) bestWrong = i;
    }
    // A tie is not a pick: the intended Tool must score strictly highest.
    const margin = (scores[right] as number) - (scores[bestWrong] as number);
    return {
      text: u.text,
      expected: u.tool,
      chosen: margin > 0 ? u.tool : (names[best === right ? bestWrong : best] as string),
      margin,
      runnerUp: names[bestWrong] as string,
    };
  });
  const pairs: PairOverlap[] = [];
  for (let a = 0; a < tools.length; a++)
    for (let b = a + 1; b < tools.length; b++)
      pairs.push({
        a: names[a] as string,
        b: names[b] as string,
        similarity: index.similarity(a, b),
        shared: index
          .sharedTerms(a, b)
          .slice(0, 6)
          .map((s) => s.term),
      });
  pairs.sort((x, y) => y.similarity - x.similarity);
  const n = results.length || 1;
  return {
    tools: tools.length,
    utterances: results.length,
    selection_accuracy_at_1: results.filter((r) => r.chosen === r.expected).length / n,
    selection_margin: results.reduce((sum, r) => sum + r.margin, 0) / n,
    max_description_overlap: pairs[0]?.similarity ?? 0,
    pairs,
    results,
  };
}

const fmt = (x: number) => x.toFixed(4);

/** Why the report breaks the floors, one line per broken number, naming what to fix; empty when it holds. */
export function gateFailures(report: SelectionReport, floors: Floors): string[] {
  const failures: string[] = [];
  if (report.selection_accuracy_at_1 < floors.selection_accuracy_at_1) {
    const misses = report.results
      .filter((r) => r.chosen !== r.expected)
      .map((r) => `"${r.text}" should pick ${r.expected} but picks ${r.chosen}`);
    failures.push(
      `selection_accuracy_at_1 ${fmt(report.selection_accuracy_at_1)} is below its floor ${floors.selection_accuracy_at_1}; missed:\n  ${misses.join("\n  ")}`,
    );
  }
  if (report.selection_margin < floors.selection_margin) {
    const thinnest = [...report.results]
      .sort((x, y) => x.margin - y.margin)
      .slice(0, 5)
      .map((r) => `"${r.text}" (${r.expected} over ${r.runnerUp} by ${fmt(r.margin)})`);
    const byTool = new Map<string, number[]>();
    for (const r of report.results) byTool.set(r.expected, [...(byTool.get(r.expected) ?? []), r.margin]);
    const weakest = [...byTool]
      .map(([tool, margins]) => ({ tool, mean: margins.reduce((a, b) => a + b, 0) / margins.length }))
      .sort((x, y) => x.mean - y.mean)
      .slice(0, 3)
      .map((t) => `${t.tool} ${fmt(t.mean)}`);
    failures.push(
      `selection_margin ${fmt(report.selection_margin)} is below its floor ${floors.selection_margin}; weakest tools (mean margin): ${weakest.join(", ")}; thinnest:\n  ${thinnest.join("\n  ")}`,
    );
  }
  const over = report.pairs.filter((p) => p.similarity > floors.max_description_overlap);
  if (over.length)
    failures.push(
      `max_description_overlap ${fmt(report.max_description_overlap)} is above its ceiling ${floors.max_description_overlap}: ${over
        .map((p) => `${p.a} ~ ${p.b} ${fmt(p.similarity)} (both say: ${p.shared.join(", ")})`)
        .join("; ")}`,
    );
  return failures;
}

/** The report as `npm run eval:tools` prints it. */
export function formatSelectionReport(report: SelectionReport): string {
  const top = report.pairs[0];
  const lines = [
    `selection_accuracy_at_1 ${report.selection_accuracy_at_1.toFixed(4)}`,
    `selection_margin ${report.selection_margin.toFixed(4)}`,
    `max_description_overlap ${report.max_description_overlap.toFixed(4)}${top ? ` (${top.a} ~ ${top.b})` : ""}`,
    "",
    `closest pairs (of ${report.pairs.length}, ${report.tools} tools, ${report.utterances} utterances):`,
    ...report.pairs
      .slice(0, 5)
      .map((p) => `  ${p.similarity.toFixed(4)}  ${p.a} ~ ${p.b}   shared: ${p.shared.join(", ") || "—"}`),
  ];
  const misses = report.results.filter((r) => r.chosen !== r.expected);
  if (misses.length) {
    lines.push("", `missed (${misses.length}):`);
    for (const r of misses) lines.push(`  ${r.expected} → ${r.chosen} (${r.margin.toFixed(3)}): "${r.text}"`);
  }
  return lines.join("\n");
}
