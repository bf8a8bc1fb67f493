/**
 * The one error shape of Quartermaster's plain HTTP answers (the SDK Tool Host API, scope
 * files, metrics, /api/auth and the consent page's approve, body limits, cross-site
 * refusals): `{ code, message, details?, requestId? }` with the code's HTTP status from the
 * one code table (universal/error-codes.ts), so no answer can carry a code the table does
 * not document. tRPC and /mcp have their own envelopes (trpc/init.ts, mcp/errors.ts).
 */
import { ERROR_CODES, type ErrorCode, isDomainError } from "../errors";

export interface ProblemBody {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string;
}

export function problemBody(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  requestId?: string,
): ProblemBody {
  return {
    code,
    message,
    ...(details && Object.keys(details).length ? { details } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

export function problem(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Response {
  return Response.json(problemBody(code, message, details), { status: ERROR_CODES[code].status, headers });
}

/** A refusal as its problem; null for anything else (a crash, which the caller logs). */
export function problemOf(error: unknown, headers?: Record<string, string>): Response | null {
  if (isDomainError(error)) return problem(error.code, error.message, error.details, headers);
  return null;
}
