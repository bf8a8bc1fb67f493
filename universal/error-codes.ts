/**
 * Every code Quartermaster answers with, in one table: its HTTP status and the line the docs
 * give it. Browser-safe (the console shows the docs lines as labels); the one error class,
 * DomainError, is in server/errors.ts. Grouped by who meets them, for the docs that list them
 * (docs/api.md, docs/mcp.md): a request's refusal, a catalog check's failure, a Tool Call's.
 */

/** `jsonRpc`: the JSON-RPC code /mcp answers with where the protocol names one (else invalid params or -32000). */
type CodeTable = Record<string, { status: number; doc: string; jsonRpc?: number }>;

/** A request refused: by authentication, a role, its input or the state it would change. */
export const REQUEST_ERROR_CODES = {
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
  REVIEW_STALE: {
    status: 409,
    doc: "The Tool's definition changed since the reviewer saw it (another catalog check came in); review the new definition.",
  },
  PROPOSAL_STALE: {
    status: 409,
    doc: "The proposal's memories changed since it was filed (superseded, discarded or erased); it can no longer be applied.",
  },
  /** An SDK Tool Host's progress report, refused alone (calls/progress answers it under `refused`). */
  TOOL_PROGRESS_NOT_INCREASING: {
    status: 409,
    doc: "An SDK Tool Host reported progress not greater than the call's last report; progress must increase (MCP).",
  },
  TOOL_PROGRESS_TOO_FREQUENT: {
    status: 429,
    doc: "An SDK Tool Host reported a call's progress sooner than TOOL_PROGRESS_INTERVAL_MS after its last accepted report.",
  },
  /** A scope file carries no signature and the importer did not accept an unsigned one. */
  SCOPE_FILE_UNSIGNED: {
    status: 422,
    doc: "The scope file is not signed; import it only if you trust where it came from, accepting an unsigned file.",
  },
  /** A signed scope file whose lines no longer match their signed digests: details.lines names them. */
  SCOPE_FILE_MODIFIED: {
    status: 422,
    doc: "The scope file was changed after it was signed; details.lines names the lines that differ.",
  },
  /** A scope file signed by a key this installation does not trust. */
  SCOPE_FILE_UNTRUSTED: {
    status: 422,
    doc: "The scope file is signed by a key this installation does not trust; an admin may add it (details.fingerprint).",
  },
  /** tasks/get, tasks/result, tasks/cancel at /mcp: the task id did not open for this identity. */
  TASK_HANDLE_INVALID: {
    status: 400,
    jsonRpc: -32602,
    doc: "The task id was not issued by Quartermaster to this Agent Identity, was altered, or has expired (TASK_HANDLE_TTL_SECONDS).",
  },
  /** The task id is sound, but the Source it names is gone or no longer this identity's. */
  TASK_SOURCE_GONE: {
    status: 404,
    jsonRpc: -32602,
    doc: "The task's Source was deleted, or its Tool is no longer held by this Agent Identity; the task cannot be reached.",
  },
  /** A task-augmented tools/call (2025-11-25) of a Tool whose definition does not allow tasks. */
  TASK_NOT_SUPPORTED: {
    status: 400,
    jsonRpc: -32601,
    doc: "The Tool does not run as a task (its execution.taskSupport is absent or forbidden); call it without task augmentation.",
  },
  /** Console sign-in (/api/auth): too many failed attempts for the account or the address. */
  SIGN_IN_THROTTLED: {
    status: 429,
    doc: "Too many failed sign-ins for this account or from this address; try again after Retry-After seconds.",
  },
  /** The consent page's approve: the authorization request was answered in another tab (decision 0081). */
  ALREADY_ANSWERED: {
    status: 409,
    doc: "The authorization request was already approved or denied in another tab or window; nothing more was granted.",
  },
  /** A poll of an approval's task after the poll that ran the call, once its result is no longer kept. */
  TASK_RESULT_NOT_KEPT: {
    status: 410,
    jsonRpc: -32602,
    doc: "The approved call ran for an earlier poll of this task; its result was larger than APPROVAL_RESULT_BYTES or older than APPROVAL_RESULT_KEEP_SECONDS, so it is not kept. The call is never run again.",
  },
  /** A Source's task asked for input (input_required), which Quartermaster does not relay. */
  TASK_INPUT_UNSUPPORTED: {
    status: 501,
    doc: "The Source's task asked for input (input_required), which Quartermaster does not relay to agents; the agent's task reports failed with this code, and tasks/cancel ends it on the Source.",
  },
  INTERNAL: { status: 500, doc: "Unexpected failure; the request id in the logs has details." },
  METHOD_NOT_ALLOWED: {
    status: 405,
    doc: "The HTTP method is not supported at this path; the Allow header says which are.",
  },
} as const satisfies CodeTable;

/**
 * Why a catalog check (or an SDK registration) failed as a whole. Each code names one
 * cause; the message says what was measured against which limit, in words an operator
 * can act on, and `details` carries the same facts for programs. A registration answers
 * with the status: its own input, so 4xx.
 */
export const CHECK_FAILURE_CODES = {
  CATALOG_TIMEOUT: { status: 422, doc: "The check did not finish within its time limit." },
  CATALOG_TOO_MANY_PAGES: { status: 422, doc: "The catalog needs more pages than one check may read." },
  CATALOG_TOO_MANY_TOOLS: { status: 422, doc: "The catalog has more Tools than one Source may publish." },
  CATALOG_TOO_LARGE: { status: 422, doc: "The Tool definitions together exceed the catalog size limit." },
  CATALOG_CURSOR_LOOP: { status: 422, doc: "The server returned a cursor it had already returned." },
  CATALOG_DUPLICATE_TOOL_NAME: { status: 422, doc: "Two Tools share one native name." },
  CATALOG_RESPONSE_TOO_LARGE: { status: 422, doc: "One response from the server exceeded the size limit." },
  CATALOG_TRANSPORT_ERROR: { status: 422, doc: "The server could not be reached." },
  CATALOG_HTTP_ERROR: { status: 422, doc: "The server answered with an HTTP error." },
  CATALOG_UNAUTHORIZED: { status: 422, doc: "The server refused the Connection's credentials." },
  CATALOG_REMOTE_ERROR: { status: 422, doc: "The server answered with a JSON-RPC error." },
  CATALOG_MALFORMED_RESPONSE: { status: 400, doc: "The server's answer is not a valid MCP response." },
  CATALOG_ADDRESS_BLOCKED: { status: 422, doc: "The server's address is in a range Connections may not reach." },
  TOOL_DEFINITION_TOO_LARGE: { status: 422, doc: "One Tool definition exceeds the size limit." },
  TOOL_NAME_INVALID: { status: 422, doc: "A Tool's native name is empty or too long." },
  TOOL_DESCRIPTION_TOO_LONG: { status: 422, doc: "A Tool's description is too long." },
  TOOL_SCHEMA_TOO_DEEP: { status: 422, doc: "A Tool's JSON Schemas are nested too deeply." },
  TOOL_SCHEMA_TOO_LARGE: {
    status: 422,
    doc: "A Tool's JSON Schemas have too many nodes, or an SDK input schema is too large.",
  },
  TOOL_DEFINITION_TOO_DEEP: {
    status: 422,
    doc: "A Tool's definition outside its schemas (annotations, _meta) is nested too deeply.",
  },
  CATALOG_CHECK_FAILED: { status: 422, doc: "Quartermaster itself failed while checking (see the server log)." },
  TOO_MANY_TOOLS: { status: 422, doc: "An SDK registration has more Tools than one Source may publish." },
  REQUEST_BODY_TOO_LARGE: { status: 413, doc: "An SDK registration request body is too large." },
  TOOL_TIMEOUT_INVALID: {
    status: 422,
    doc: "An SDK registration declares a Tool's timeoutSeconds that is not a whole number of seconds from 1 to the release's ceiling (TOOL_CALL_TIMEOUT_MAX_SECONDS).",
  },
  SOURCE_PAUSED: {
    status: 409,
    doc: "An operator paused the SDK Tool Host; registrations are refused until it is resumed.",
  },
} as const satisfies CodeTable;

/**
 * Why a proxied Tool Call failed. A failed call reaches the agent as a Tool Result with
 * isError set and the code in front of a message it can act on; the model reads it and
 * may try something else, instead of the whole request failing. (The status is what the
 * call would answer over plain HTTP; /mcp answers every call 200.)
 */
export const TOOL_CALL_FAILURE_CODES = {
  TOOL_CALL_TIMEOUT: {
    status: 504,
    doc: "The Source did not answer within the time one Tool Call may take (an SDK Tool's own timeoutSeconds, or the default).",
  },
  TOOL_HOST_OFFLINE: {
    status: 503,
    doc: "The SDK Tool Host went offline (it shut down, or went silent past its heartbeat timeout and its Tools were withdrawn) while the call waited for it; the call never ran.",
  },
  // 499 as proxies log it: the client closed the request; nobody reads this answer but the call log.
  TOOL_CALL_CANCELLED: {
    status: 499,
    doc: "The agent cancelled the call (notifications/cancelled) or hung up before it was answered; an MCP Connection's Source is told on its request, an SDK Tool Host's handler through its signal.",
  },
  SOURCE_UNREACHABLE: {
    status: 502,
    doc: "The Source's server could not be reached or answered with an HTTP error. When its catalog checks fail too, the message says since when (UTC, and how long ago) and when its next check is due: use another Tool meanwhile, or retry after that check.",
  },
  SOURCE_ADDRESS_BLOCKED: { status: 502, doc: "The Source's address is refused by the network policy." },
  REMOTE_RESPONSE_TOO_LARGE: {
    status: 502,
    doc: "One response from the Source was larger than a remote response may be.",
  },
  TOOL_RESULT_TOO_LARGE: { status: 502, doc: "The Tool Result was larger than an accepted Tool Result may be." },
  TOOL_RESULT_TOO_MANY_TEXT_BLOCKS: { status: 502, doc: "The Tool Result had more text blocks than are accepted." },
  TOOL_RESULT_TEXT_TOO_LONG: { status: 502, doc: "One text block of the Tool Result was longer than accepted." },
  TOOL_RESULT_MALFORMED: { status: 502, doc: "The Source's answer was not a Tool Result." },
  TOOL_RESULT_TOO_DEEP: {
    status: 502,
    doc: "The Tool Result was nested more deeply than an accepted Tool Result may be.",
  },
  SOURCE_CALL_ERROR: { status: 502, doc: "The Source refused the call (a JSON-RPC error)." },
  TOOL_RESULT_NUL: { status: 502, doc: "An SDK Tool Host's output or error message contained a NUL character." },
  RATE_LIMITED: {
    status: 429,
    doc: "The Agent Identity or the Tool is over its rate limit (calls per minute or calls at once); error.retryAfterMs says when to try again.",
  },
  INVALID_ARGUMENTS: {
    status: 400,
    doc: "The arguments break the Tool's input schema or a Tool Call limit; nothing was forwarded. An SDK Tool Host refuses with it too, before its handler runs, what its schema checks beyond the published JSON Schema (a refinement); the message names the field either way.",
  },
  TOOL_NOT_HELD: {
    status: 403,
    doc: "The identity held this Tool but no longer does; the message says why and since when.",
  },
  TOOL_AWAITING_REVIEW: {
    status: 403,
    doc: "The Tool's definition is new or changed since an operator approved it (or was rejected); it is not offered until approved in Tools → Review. The message says what changed and since when.",
  },
  CONFIRMATION_REQUIRED: {
    status: 200,
    doc: "The Tool is under the confirm policy: the client was asked to confirm (an InputRequiredResult) and nothing ran yet. Recorded in the call log; the agent sees the question, not this code.",
  },
  CONFIRMATION_UNAVAILABLE: {
    status: 403,
    doc: "The Tool is under the confirm policy and this client cannot ask its user (it declared no form elicitation, speaks 2025-03-26, or answered the question with an error); nothing ran.",
  },
  CONFIRMATION_DECLINED: {
    status: 403,
    doc: "The user declined, cancelled or did not answer the confirmation in time; nothing ran.",
  },
  CONFIRMATION_INVALID: {
    status: 403,
    doc: "The confirmation carried back does not fit this call (other arguments, another Tool definition), was used already, or its requestState was refused (changed, expired, another identity's: answered as -32602); nothing ran.",
  },
  APPROVAL_PENDING: {
    status: 202,
    doc: "The Tool is under the approve policy: the call is parked until an approver decides in the console. error.approvalId names it; retry the same call after error.retryAfterMs and it runs once approved.",
  },
  APPROVAL_DENIED: {
    status: 403,
    doc: "An approver denied this call (error.reason says why); nothing ran.",
  },
} as const satisfies CodeTable;

export const ERROR_CODES = { ...REQUEST_ERROR_CODES, ...CHECK_FAILURE_CODES, ...TOOL_CALL_FAILURE_CODES } as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type CheckFailureCode = keyof typeof CHECK_FAILURE_CODES;
export type ToolCallFailureCode = keyof typeof TOOL_CALL_FAILURE_CODES;

export const isCheckFailureCode = (code: string): code is CheckFailureCode => Object.hasOwn(CHECK_FAILURE_CODES, code);
export const isToolCallFailureCode = (code: string): code is ToolCallFailureCode =>
  Object.hasOwn(TOOL_CALL_FAILURE_CODES, code);
