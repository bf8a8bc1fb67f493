/**
 * How a Tool Call ended (ok, the Tool's own isError, or failed with a code) is decided where
 * its result is made (agent-tools/result.ts: answered, failedCall); a call that throws —
 * a refusal of the request (NOT_FOUND, IDENTITY_OVER_BUDGET, …) or a crash — ends here.
 */
import { isDomainError } from "../../errors";
import type { Outcome } from "../agent-tools/result";

export type { CallOutcome, Outcome } from "../agent-tools/result";

export function outcomeOfError(error: unknown): Outcome {
  return { outcome: "failed", failureCode: isDomainError(error) ? error.code : "INTERNAL" };
}
