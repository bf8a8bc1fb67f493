import { expect, test } from "vitest";
import { loadScreeningFixture, measureScreening, screeningReport } from "./memory-screening";

test("write-time screening holds its precision and recall floors on the labelled set", () => {
  const fixture = loadScreeningFixture();
  const m = measureScreening(fixture);
  console.log(screeningReport(m));
  expect(m.precision).toBeGreaterThanOrEqual(fixture.floors.precision);
  expect(m.recall).toBeGreaterThanOrEqual(fixture.floors.recall);
});
