/**
 * What a submitted result may hold, written once: Quartermaster refuses a result that
 * breaks these rules as a failure of that one call, and the SDK applies the same rules to
 * a handler's output before sending it, so the host's own log says which call and why.
 */
import type { HostResultCode } from "./argument-problems.ts";
import { fmt } from "./format.ts";
import { TOOL_HOST_LIMITS as L } from "./limits.ts";
import type { ContractFailure } from "./tool-checks.ts";

export type ResultFailureCode = "TOOL_RESULT_TEXT_TOO_LONG" | "TOOL_RESULT_NUL";

/** Characters (code points) in a text, as the limit counts them. */
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Why an output would reach the agent as a failure of its call; null when it is accepted. */
export function checkResultOutput(output: string): ContractFailure<ResultFailureCode> | null {
  if (output.includes("\u0000"))
    return { code: "TOOL_RESULT_NUL", message: "The SDK Tool Host's output contains a NUL character.", details: {} };
  const maxChars = L.SDK_RESULT_OUTPUT_CHARS.value;
  // Cheap bound first: a string has at least as many UTF-16 units as characters.
  const measured = output.length > maxChars ? characters(output) : 0;
  if (measured > maxChars)
    return {
      code: "TOOL_RESULT_TEXT_TOO_LONG",
      message: `The SDK Tool Host's output has ${fmt(measured)} characters; an output may have at most ${fmt(maxChars)}.`,
      details: { measured, limit: maxChars, unit: "characters" },
    };
  return null;
}

/** Why an error message would be refused; null when it is accepted. */
export function checkResultError(error: string): ContractFailure<ResultFailureCode> | null {
  return error.includes("\u0000")
    ? { code: "TOOL_RESULT_NUL", message: "The SDK Tool Host's error message contains a NUL character.", details: {} }
    : null;
}

/**
 * A submitted result as the Tool Host API takes it. An error with a `code` is a refusal the
 * host made for Quartermaster (INVALID_ARGUMENTS: a refinement its schema checks): the agent
 * gets it as Quartermaster's own failure with that code, and the call log records the code.
 */
export type SubmittedResult = { output: string } | { error: string; code?: HostResultCode };

/** The MCP Tool Result an agent at /mcp gets for a submitted result. */
export interface ShapedToolResult {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/**
 * A call Quartermaster failed, as the Tool Result its agent gets: the code first in the text,
 * for the model to read, and `structuredContent.error { code, message, …details }` for a program.
 */
export function failedToolResult(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): ShapedToolResult & { structuredContent: { error: Record<string, unknown> } } {
  return {
    content: [{ type: "text", text: `${code}: ${message}` }],
    structuredContent: { error: { code, message, ...details } },
    isError: true,
  };
}

/**
 * A host Tool declared with an output schema sends its value as JSON text (the contract's one
 * output string); clients that see the listed outputSchema refuse a result without
 * structuredContent, so a JSON object output travels as both, as the MCP spec recommends.
 */
function structuredOf(output: string): { structuredContent?: Record<string, unknown> } {
  if (!output.startsWith("{")) return {};
  try {
    const value: unknown = JSON.parse(output);
    return value && typeof value === "object" && !Array.isArray(value)
      ? { structuredContent: value as Record<string, unknown> }
      : {};
  } catch {
    return {};
  }
}

/**
 * What the agent gets for a submitted result, or why its call fails instead: Quartermaster
 * answers /mcp with this, and the SDK's testing harness shows a developer the same.
 */
export function shapeToolResult(
  submitted: SubmittedResult,
): { ok: true; value: ShapedToolResult } | { ok: false; failure: ContractFailure<ResultFailureCode | HostResultCode> } {
  const failure = "error" in submitted ? checkResultError(submitted.error) : checkResultOutput(submitted.output);
  if (failure) return { ok: false, failure };
  if ("error" in submitted && submitted.code)
    return { ok: false, failure: { code: submitted.code, message: submitted.error, details: {} } };
  return {
    ok: true,
    value:
      "error" in submitted
        ? { content: [{ type: "text", text: submitted.error }], isError: true }
        : { content: [{ type: "text", text: submitted.output }], ...structuredOf(submitted.output) },
  };
}
