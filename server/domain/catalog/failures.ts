/**
 * Helpers for a catalog check's failures: the codes and the one error class are in
 * server/errors.ts (universal/error-codes.ts holds the table).
 */
import { type CheckFailure, DomainError } from "../../errors";

/** The facts a check failure carries: what was measured against which limit, where. */
export interface FailureDetails {
  measured?: number | string;
  limit?: number;
  unit?: string;
  tool?: string;
  page?: number;
  [key: string]: unknown;
}

/** The failure recorded when Quartermaster itself broke during a check (a bug, not the server). */
export function internalCheckFailure(): CheckFailure {
  return new DomainError(
    "CATALOG_CHECK_FAILED",
    "Quartermaster failed while running the check; the server log has details.",
  );
}

/** A failure as stored (code, message and details columns), as the API shows it; null when none. */
export function storedFailure(
  code: string | null,
  message: string | null,
  details: unknown,
): { code: string; message: string; details: Record<string, unknown> } | null {
  return code ? { code, message: message ?? "", details: (details ?? {}) as Record<string, unknown> } : null;
}
