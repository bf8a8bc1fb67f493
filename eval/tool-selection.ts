/**
 * npm run eval:tools: how well the built-in /mcp tools' descriptions let a reader pick the
 * right one for what an agent says it needs (PRODUCT.md §5). Prints the three gated numbers,
 * the five closest pairs and every missed utterance, then whether the floors hold
 * (eval/fixtures/floors.json); exits 1 when they do not.
 */
import { evaluateSelection, formatSelectionReport, gateFailures } from "@/server/domain/tool-selection/selection-eval";
import { builtInToolTexts } from "./tool-selection/built-in-tools";
import { loadFloors, loadUtterances } from "./tool-selection/fixtures";

const report = evaluateSelection(builtInToolTexts(), loadUtterances());
console.log(formatSelectionReport(report));
// Not gated: a check on how far the descriptions were fitted to the gated utterances.
const holdout = evaluateSelection(builtInToolTexts(), loadUtterances("holdout"));
console.log(
  `\nheld out (${holdout.utterances} utterances, not gated): selection_accuracy_at_1 ${holdout.selection_accuracy_at_1.toFixed(4)}, selection_margin ${holdout.selection_margin.toFixed(4)}`,
);
for (const r of holdout.results.filter((x) => x.chosen !== x.expected))
  console.log(`  ${r.expected} → ${r.chosen} (${r.margin.toFixed(3)}): "${r.text}"`);
// Written before the second round of description changes (issue 23) and never tuned
// against: only its numbers are printed, so nobody reads its misses while rewording.
const untuned = evaluateSelection(builtInToolTexts(), loadUtterances("untuned-2"));
console.log(
  `untuned 2 (${untuned.utterances} utterances, not gated): selection_accuracy_at_1 ${untuned.selection_accuracy_at_1.toFixed(4)}, selection_margin ${untuned.selection_margin.toFixed(4)}`,
);
const failures = gateFailures(report, loadFloors());
console.log(failures.length ? `\nGATE FAILS:\n${failures.join("\n")}` : "\nfloors hold (eval/fixtures/floors.json)");
process.exit(failures.length ? 1 : 0);
