import { expect, test } from "vitest";
import { loadScreeningFixture, measureScreening, screeningReports, splitOf } from "./memory-screening";

test("write-time screening holds its precision and recall floors on the labelled set, per split", () => {
  const fixture = loadScreeningFixture();
  console.log(screeningReports(fixture));
  for (const split of ["development", "heldout"] as const) {
    const m = measureScreening(splitOf(fixture, split));
    expect(m.precision, `${split} precision`).toBeGreaterThanOrEqual(fixture.floors[split].precision);
    expect(m.recall, `${split} recall`).toBeGreaterThanOrEqual(fixture.floors[split].recall);
  }
});
