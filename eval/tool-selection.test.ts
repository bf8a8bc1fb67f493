/**
 * The tool-selection gate (PRODUCT.md §5): the built-in /mcp tools' descriptions must keep
 * the accuracy and margin floors and stay under the overlap ceiling in
 * eval/fixtures/floors.json. A failure names the utterances or the pair to fix;
 * `npm run eval:tools` prints the whole report.
 */
import { describe, expect, it } from "vitest";
import { evaluateSelection, gateFailures } from "@/server/domain/tool-selection/selection-eval";
import { builtInToolTexts } from "./tool-selection/built-in-tools";
import { loadFloors, loadUtterances } from "./tool-selection/fixtures";

const floors = loadFloors();
const utterances = loadUtterances();

describe("tool-selection gate", () => {
  it("has at least five utterances for every built-in tool", () => {
    for (const tool of builtInToolTexts())
      expect(utterances.filter((u) => u.tool === tool.name).length, tool.name).toBeGreaterThanOrEqual(5);
  });

  it("the built-in tools' descriptions hold the floors", () => {
    const failures = gateFailures(evaluateSelection(builtInToolTexts(), utterances), floors);
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("fails, naming the tool, when a description turns vague", () => {
    const tools = builtInToolTexts().map((t) =>
      t.name === "remember" ? { ...t, title: "Memory", description: "Works with memory.", inputSchema: {} } : t,
    );
    const failures = gateFailures(evaluateSelection(tools, utterances), floors);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.join("\n")).toMatch(/should pick remember but picks|weakest tools \(mean margin\): remember/);
  });

  it("fails, naming the pair, when one tool's description repeats another's", () => {
    const all = builtInToolTexts();
    const remember = all.find((t) => t.name === "remember");
    const tools = all.map((t) => (t.name === "debrief" && remember ? { ...remember, name: "debrief" } : t));
    const failures = gateFailures(evaluateSelection(tools, utterances), floors);
    expect(failures.join("\n")).toMatch(
      /max_description_overlap .* above its ceiling .*(remember ~ debrief|debrief ~ remember)/,
    );
  });
});
