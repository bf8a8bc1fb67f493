/**
 * The one error shape of Quartermaster's plain HTTP endpoints (the SDK Tool Host API, scope
 * files, metrics, body limits): `{ code, message, details?, requestId? }` with the code's
 * HTTP status (universal/error-codes.ts). tRPC and /mcp have their own envelopes (trpc/init.ts,
 * mcp/errors.ts).
 */
import { isDomainError } from "../errors";

export interface ProblemBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string;
}

export function problemBody(
  code: string,
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
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Response {
  return Response.json(problemBody(code, message, details), { status, headers });
}

/** A refusal as its problem; null for anything else (a crash, which the caller logs). */
export function problemOf(error: unknown): Response | null {
  if (isDomainError(error)) return problem(error.status, error.code, error.message, error.details);
  return null;
}
