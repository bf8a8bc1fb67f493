/**
 * The one error class Quartermaster throws for every code it answers with: a request's
 * refusal, a catalog check's failure, a Tool Call's failure (the codes and their statuses:
 * universal/error-codes.ts). Each transport maps it in one place: tRPC (trpc/init.ts),
 * JSON-RPC (jsonRpcErrorOf, for /mcp), a Tool Result (agent-tools/result.ts: failedCall)
 * and plain HTTP (http/problem.ts). `message` is safe to show to whoever made the request;
 * never put secrets in it.
 */
import "server-only";
import { CHECK_FAILURE_CODES, ERROR_CODES, type ErrorCode, TOOL_CALL_FAILURE_CODES } from "@/universal/error-codes";

export {
  CHECK_FAILURE_CODES,
  type CheckFailureCode,
  ERROR_CODES,
  type ErrorCode,
  REQUEST_ERROR_CODES,
  TOOL_CALL_FAILURE_CODES,
  type ToolCallFailureCode,
} from "@/universal/error-codes";

export class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = "DomainError";
  constructor(
    readonly code: C,
    message: string,
    /** Machine-readable facts for clients (e.g. { field, limit, measured }). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** JSON-RPC's own code for invalid params; -32000 is the first a server may define. */
const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_REFUSED = -32000;

/**
 * A refusal as the JSON-RPC error /mcp answers with (and "Try a Tool" shows): invalid params
 * for the caller's input, a server-defined code for every other refusal; the code leads the
 * message and travels in `data.code`.
 */
export function jsonRpcErrorOf(error: DomainError): { code: number; message: string; data: Record<string, unknown> } {
  return {
    code:
      (ERROR_CODES[error.code] as { jsonRpc?: number }).jsonRpc ??
      (error.code === "INVALID_INPUT" || error.code === "NOT_FOUND" ? JSON_RPC_INVALID_PARAMS : JSON_RPC_REFUSED),
    message: `${error.code}: ${error.message}`,
    data: { code: error.code, ...error.details },
  };
}

/** A refusal as a whole JSON-RPC error response, answered before any request id is read. */
export function jsonRpcErrorBody(error: DomainError) {
  return { jsonrpc: "2.0" as const, error: jsonRpcErrorOf(error), id: null };
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError || (error as { name?: unknown } | null)?.name === "DomainError";
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} was not found.`);

/** A catalog check's failure (or an SDK registration's), as a check records it. */
export type CheckFailure = DomainError<keyof typeof CHECK_FAILURE_CODES>;
/** A proxied Tool Call's failure, as its Tool Result and the call log carry it. */
export type ToolCallFailure = DomainError<keyof typeof TOOL_CALL_FAILURE_CODES>;

export function isCheckFailure(error: unknown): error is CheckFailure {
  return isDomainError(error) && Object.hasOwn(CHECK_FAILURE_CODES, error.code);
}

export function isToolCallFailure(error: unknown): error is ToolCallFailure {
  return isDomainError(error) && Object.hasOwn(TOOL_CALL_FAILURE_CODES, error.code);
}
