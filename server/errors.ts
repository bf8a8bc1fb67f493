/**
 * The one error type domain code throws. Each transport maps it in one place:
 * tRPC (server/trpc/init.ts), the Tool Host HTTP API (server/http/json.ts) and /mcp.
 * `message` is safe to show to whoever made the request; never put secrets in it.
 */

export const ERROR_CODES = {
  /** No valid session, API key, host token or agent token. */
  UNAUTHENTICATED: { status: 401, doc: "Sign in, or send a valid Authorization: Bearer token." },
  /** Authenticated, but the role does not allow this. */
  FORBIDDEN: { status: 403, doc: "Your role does not allow this action." },
  NOT_FOUND: { status: 404, doc: "The object does not exist or was deleted." },
  /** A unique name or a state conflict (e.g. removing the last admin). */
  CONFLICT: { status: 409, doc: "The change conflicts with the current state." },
  /** A field failed validation; the message names the field and the rule. */
  INVALID_INPUT: { status: 400, doc: "A field is missing or invalid; the message names it." },
  /** An assignment or instructions would take an Agent Identity past its definition budget. */
  BUDGET_EXCEEDED: {
    status: 422,
    doc: "The change would put the Agent Identity over its budget; details.overByBytes says by how much.",
  },
  /** An Agent Identity is over its budget (catalog growth); its agents are refused until it is back under. */
  IDENTITY_OVER_BUDGET: {
    status: 409,
    doc: "The Agent Identity is over its definition budget; unassign a Source to bring it back.",
  },
  /** An MCP Connection already has the most Agent Identities a release allows. */
  TOO_MANY_IDENTITIES: {
    status: 422,
    doc: "The MCP Connection is assigned to the maximum number of Agent Identities.",
  },
  /** A memory body over the limit; details name the limit and the measured size. */
  MEMORY_TOO_LARGE: {
    status: 413,
    doc: "A memory body may be at most 64 KiB (65,536 bytes of UTF-8); details.measured says how large it was.",
  },
  /** The actor holds no grant (or role) for this scope, or only read where it writes. */
  SCOPE_ACCESS_DENIED: {
    status: 403,
    doc: "The scope is not readable or writable for you: an Agent Identity needs a grant for it (read or write).",
  },
  /** A proposal's memories changed since the consolidator filed it. */
  PROPOSAL_STALE: {
    status: 409,
    doc: "The proposal's memories changed since it was filed (superseded, discarded or erased); it can no longer be applied.",
  },
  INTERNAL: { status: 500, doc: "Unexpected failure; the request id in the logs has details." },
} as const satisfies Record<string, { status: number; doc: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class DomainError extends Error {
  override readonly name = "DomainError";
  constructor(
    readonly code: ErrorCode,
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
    code: error.code === "INVALID_INPUT" || error.code === "NOT_FOUND" ? JSON_RPC_INVALID_PARAMS : JSON_RPC_REFUSED,
    message: `${error.code}: ${error.message}`,
    data: { code: error.code, ...error.details },
  };
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError || (error as { name?: unknown } | null)?.name === "DomainError";
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} was not found.`);
