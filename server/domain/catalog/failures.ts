/**
 * Why a catalog check (or an SDK registration) failed as a whole. Each code names one
 * cause; the message says what was measured against which limit, in words an operator
 * can act on, and `details` carries the same facts for programs.
 */
export const CHECK_FAILURE_CODES = {
  CATALOG_TIMEOUT: "The check did not finish within its time limit.",
  CATALOG_TOO_MANY_PAGES: "The catalog needs more pages than one check may read.",
  CATALOG_TOO_MANY_TOOLS: "The catalog has more Tools than one Source may publish.",
  CATALOG_TOO_LARGE: "The Tool definitions together exceed the catalog size limit.",
  CATALOG_CURSOR_LOOP: "The server returned a cursor it had already returned.",
  CATALOG_DUPLICATE_TOOL_NAME: "Two Tools share one native name.",
  CATALOG_RESPONSE_TOO_LARGE: "One response from the server exceeded the size limit.",
  CATALOG_TRANSPORT_ERROR: "The server could not be reached.",
  CATALOG_HTTP_ERROR: "The server answered with an HTTP error.",
  CATALOG_UNAUTHORIZED: "The server refused the Connection's credentials.",
  CATALOG_REMOTE_ERROR: "The server answered with a JSON-RPC error.",
  CATALOG_MALFORMED_RESPONSE: "The server's answer is not a valid MCP response.",
  CATALOG_ADDRESS_BLOCKED: "The server's address is in a range Connections may not reach.",
  TOOL_DEFINITION_TOO_LARGE: "One Tool definition exceeds the size limit.",
  TOOL_NAME_INVALID: "A Tool's native name is empty or too long.",
  TOOL_DESCRIPTION_TOO_LONG: "A Tool's description is too long.",
  TOOL_SCHEMA_TOO_DEEP: "A Tool's JSON Schemas are nested too deeply.",
  TOOL_SCHEMA_TOO_LARGE: "A Tool's JSON Schemas have too many nodes, or an SDK input schema is too large.",
  TOOL_DEFINITION_TOO_DEEP: "A Tool's definition outside its schemas (annotations, _meta) is nested too deeply.",
  CATALOG_CHECK_FAILED: "Quartermaster itself failed while checking (see the server log).",
  TOO_MANY_TOOLS: "An SDK registration has more Tools than one Source may publish.",
  REQUEST_BODY_TOO_LARGE: "An SDK registration request body is too large.",
  SOURCE_PAUSED: "An operator paused the SDK Tool Host; registrations are refused until it is resumed.",
} as const;

export type CheckFailureCode = keyof typeof CHECK_FAILURE_CODES;

export interface FailureDetails {
  measured?: number | string;
  limit?: number;
  unit?: string;
  tool?: string;
  page?: number;
  [key: string]: unknown;
}

export class CheckFailure extends Error {
  override readonly name = "CheckFailure";
  constructor(
    readonly code: CheckFailureCode,
    message: string,
    readonly details: FailureDetails = {},
  ) {
    super(message);
  }
}

export function isCheckFailure(error: unknown): error is CheckFailure {
  return (error as { name?: unknown } | null)?.name === "CheckFailure";
}

// The SDK writes its local refusals with the same words: one formatter, in the SDK package.
export { fmt, fmtBytes } from "@/sdk/src/contract/format";

/** The failure recorded when Quartermaster itself broke during a check (a bug, not the server). */
export function internalCheckFailure(): CheckFailure {
  return new CheckFailure(
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
