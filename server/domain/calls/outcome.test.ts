import { describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import { ToolCallFailure } from "../agent-tools/failures";
import { failedResult } from "../agent-tools/result";
import { outcomeOfError, outcomeOfResult } from "./outcome";

const toolError = (code?: string) => ({
  content: [{ type: "text", text: "no" }],
  isError: true,
  structuredContent: code ? { error: { code } } : undefined,
});

describe("a call's outcome", () => {
  it("is ok without isError, whatever the content says", () => {
    expect(outcomeOfResult({ structuredContent: { error: { code: "TOOL_CALL_TIMEOUT" } } })).toEqual({
      outcome: "ok",
      failureCode: null,
    });
  });

  it("is failed with the code when Quartermaster failed the call", () => {
    expect(outcomeOfResult(failedResult(new ToolCallFailure("RATE_LIMITED", "slow down")))).toEqual({
      outcome: "failed",
      failureCode: "RATE_LIMITED",
    });
    expect(outcomeOfResult(toolError("SCOPE_ACCESS_DENIED"))).toEqual({
      outcome: "failed",
      failureCode: "SCOPE_ACCESS_DENIED",
    });
  });

  it("is the Tool's own isError when a Source says so, even with a code of its own", () => {
    expect(outcomeOfResult(toolError())).toEqual({ outcome: "is_error", failureCode: null });
    expect(outcomeOfResult(toolError("CUSTOMER_UNKNOWN"))).toEqual({ outcome: "is_error", failureCode: null });
  });

  it("takes any code of a built-in tool, which no Source answers", () => {
    expect(outcomeOfResult(toolError("INVALID_ARGUMENTS"), { builtIn: true })).toEqual({
      outcome: "failed",
      failureCode: "INVALID_ARGUMENTS",
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
