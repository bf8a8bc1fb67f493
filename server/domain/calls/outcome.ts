/**
 * How a Tool Call ended, as the call log and the metrics count it: ok, a Tool Result the
 * Tool itself marked isError, or failed with a code — a Tool Call failure (the Source
 * timed out, the result broke a limit, RATE_LIMITED, …) that reached the agent as an
 * isError result, or a refusal of the request (NOT_FOUND, INVALID_INPUT, …).
 */
import { isDomainError } from "../../errors";
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
 * the Tool Call failure codes (agent-tools/result.ts failedResult). A Source's own isError
 * result is the Tool's answer, not a failure of the call.
 */
export function outcomeOfResult(result: ResultLike): Outcome {
  if (!result.isError) return { outcome: "ok", failureCode: null };
  const structured = result.structuredContent as { error?: { code?: unknown } } | undefined;
  const code = structured?.error?.code;
  if (typeof code === "string" && code in TOOL_CALL_FAILURE_CODES) return { outcome: "failed", failureCode: code };
  return { outcome: "is_error", failureCode: null };
}

export function outcomeOfError(error: unknown): Outcome {
  return { outcome: "failed", failureCode: isDomainError(error) ? error.code : "INTERNAL" };
}
