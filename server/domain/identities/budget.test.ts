import { describe, expect, it } from "vitest";
import { LIMITS } from "../../limits";
import { validateToolDefinition } from "../catalog/validate-tool";
import { makeBudget, planningEstimate, stateOf } from "./budget";
import { REFERENCE_BYTES, referenceTool } from "./reference-tools";

const within = (actual: number, expected: number, tolerance: number) =>
  Math.abs(actual - expected) / expected <= tolerance;

describe("planning estimate", () => {
  it("fits about 15,000 small, 7,000 mid-sized or 2,800 large Tools in an empty identity (within 15%)", () => {
    const estimate = planningEstimate(makeBudget(0, 0));
    expect(within(estimate.small, 15_000, 0.15), `small: ${estimate.small}`).toBe(true);
    expect(within(estimate.mid, 7_000, 0.15), `mid: ${estimate.mid}`).toBe(true);
    expect(within(estimate.large, 2_800, 0.15), `large: ${estimate.large}`).toBe(true);
  });

  it("uses reference Tools of the shapes the estimate promises, measured as the budget measures", () => {
    const small = referenceTool("small");
    const large = referenceTool("large");
    expect(Object.keys(small.inputSchema.properties)).toHaveLength(3);
    expect(Object.keys(large.inputSchema.properties)).toHaveLength(10);
    expect([...large.description]).toHaveLength(1000);
    expect(small.description.length).toBeLessThan(120);
    // A reference Tool published like any other is accepted as-is.
    expect(validateToolDefinition(large, { index: 0 }).nativeName).toBe(large.name);
  });

  it("shrinks with instructions and with Tools held", () => {
    const half = makeBudget(LIMITS.IDENTITY_BUDGET_BYTES.value / 2 - 1000, 1000);
    expect(planningEstimate(half).small).toBe(Math.floor(half.freeBytes / REFERENCE_BYTES.small));
    const full = makeBudget(LIMITS.IDENTITY_BUDGET_BYTES.value, 1);
    expect(stateOf(full)).toBe("over_budget");
    expect(full.overByBytes).toBe(1);
    expect(planningEstimate(full)).toEqual({ small: 0, mid: 0, large: 0 });
  });
});
