import { describe, expect, it } from "vitest";
import { DomainError, isCheckFailure, isToolCallFailure } from "@/server/errors";
import { CHECK_FAILURE_CODES, ERROR_CODES, REQUEST_ERROR_CODES, TOOL_CALL_FAILURE_CODES } from "./error-codes";

describe("the one code table", () => {
  it("gives each code one entry: no family redefines another's code", () => {
    const families = [REQUEST_ERROR_CODES, CHECK_FAILURE_CODES, TOOL_CALL_FAILURE_CODES].map(Object.keys);
    const all = families.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(ERROR_CODES).length).toBe(all.length);
  });

  it("tells a check's failure from a Tool Call's, both being the one error class", () => {
    const check = new DomainError("CATALOG_TIMEOUT", "slow");
    const call = new DomainError("TOOL_CALL_TIMEOUT", "slow");
    const refusal = new DomainError("NOT_FOUND", "gone");
    expect([isCheckFailure(check), isCheckFailure(call), isCheckFailure(refusal)]).toEqual([true, false, false]);
    expect([isToolCallFailure(check), isToolCallFailure(call), isToolCallFailure(refusal)]).toEqual([
      false,
      true,
      false,
    ]);
    expect([check.status, call.status, new DomainError("SOURCE_PAUSED", "paused").status]).toEqual([422, 504, 409]);
  });
});
