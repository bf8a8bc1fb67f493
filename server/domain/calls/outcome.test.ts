import { describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import { answered, failedCall, failedResult } from "../agent-tools/result";
import { outcomeOfError } from "./outcome";

describe("a call's outcome, decided where its result is made", () => {
  it("is ok for a Tool's answer, whatever its content says", () => {
    const result = { content: [], structuredContent: { error: { code: "TOOL_CALL_TIMEOUT" } } };
    expect(answered(result)).toEqual({ result, outcome: { outcome: "ok", failureCode: null } });
  });

  it("is the Tool's own isError when a Source says so, even with a code of its own", () => {
    const result = {
      content: [{ type: "text", text: "no" }],
      structuredContent: { error: { code: "RATE_LIMITED" } },
      isError: true,
    };
    expect(answered(result).outcome).toEqual({ outcome: "is_error", failureCode: null });
  });

  it("is failed with the code when Quartermaster failed the call, and the result carries the error", () => {
    const { result, outcome } = failedResult(new DomainError("RATE_LIMITED", "slow down", { retryAfterMs: 5 }));
    expect(outcome).toEqual({ outcome: "failed", failureCode: "RATE_LIMITED" });
    expect(result).toEqual({
      content: [{ type: "text", text: "RATE_LIMITED: slow down" }],
      structuredContent: { error: { code: "RATE_LIMITED", message: "slow down", retryAfterMs: 5 } },
      isError: true,
    });
    expect(failedCall("SCOPE_ACCESS_DENIED", "no grant").outcome).toEqual({
      outcome: "failed",
      failureCode: "SCOPE_ACCESS_DENIED",
    });
  });

  it("is failed with the refusal's code, or INTERNAL for a crash", () => {
    expect(outcomeOfError(new DomainError("NOT_FOUND", "gone"))).toEqual({
      outcome: "failed",
      failureCode: "NOT_FOUND",
    });
    expect(outcomeOfError(new Error("boom"))).toEqual({ outcome: "failed", failureCode: "INTERNAL" });
  });
});
