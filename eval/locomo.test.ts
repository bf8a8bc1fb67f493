import { expect, test } from "vitest";
import { evidenceIds } from "./locomo";

test("LoCoMo evidence entries are read as the turns they name, several to an entry or with a stray colon", () => {
  expect(evidenceIds("D3:16")).toEqual(["D3:16"]);
  expect(evidenceIds("D8:6; D9:17")).toEqual(["D8:6", "D9:17"]);
  expect(evidenceIds("D9:1 D4:4 D4:6")).toEqual(["D9:1", "D4:4", "D4:6"]);
  expect(evidenceIds("D:11:26")).toEqual(["D11:26"]);
  expect(evidenceIds("")).toEqual([]);
});
