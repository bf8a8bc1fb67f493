/**
 * How a Tool Call ended, as the call log and the metrics count it: ok, a Tool Result the
 * Tool itself marked isError, or failed with a code — a Tool Call failure (the Source
 * timed out, the result broke a limit, RATE_LIMITED, …) that reached the agent as an
 * isError result, or a refusal of the request (NOT_FOUND, INVALID_INPUT, …).
 */
import { ERROR_CODES, isDomainError } from "../../errors";
import { TOOL_CALL_FAILURE_CODES } from "../agent-tools/failures";

export type CallOutcome = "ok" | "is_error" | "failed";

export interface Outcome {
  outcome: CallOutcome;
  failureCode: string | null;
}

interface ResultLike {
  isError?: boolean;
  structuredContent?: unknown;
}

/**
 * A failure Quartermaster made is an isError result whose structured error carries one of
 * its codes: a Tool Call failure code (agent-tools/result.ts failedResult) or a domain
 * error's, and, from a built-in tool (which no Source answers), any code. A Source's own
 * isError result is the Tool's answer, not a failure of the call.
 */
export function outcomeOfResult(result: ResultLike, options: { builtIn?: boolean } = {}): Outcome {
  if (!result.isError) return { outcome: "ok", failureCode: null };
  const structured = result.structuredContent as { error?: { code?: unknown } } | undefined;
  const code = structured?.error?.code;
  if (typeof code === "string" && (options.builtIn || code in TOOL_CALL_FAILURE_CODES || code in ERROR_CODES))
    return { outcome: "failed", failureCode: code.slice(0, 100) };
  return { outcome: "is_error", failureCode: null };
}

export function outcomeOfError(error: unknown): Outcome {
  return { outcome: "failed", failureCode: isDomainError(error) ? error.code : "INTERNAL" };
}
