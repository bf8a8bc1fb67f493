/**
 * Every limit Quartermaster enforces, in one table. `contract` limits are part of the
 * versioned API (changing one breaks clients); `setting` limits are release settings
 * a release may change. Source: ../shared/spec/PRODUCT.md §1.1. Browser-safe: the console
 * shows the same values and labels; server code imports them through server/limits.ts.
 *
 * The limits an SDK Tool Host meets are defined in the SDK package (sdk/src/contract/limits.ts)
 * and taken from there by name, so the SDK's local checks and the server's cannot drift
 * (docs/decisions/0019-tool-host-sdk.md).
 */
import {
  contract,
  TOOL_HOST_LIMITS as HOST,
  type Limit,
  RESERVED_ARGUMENT_PREFIX,
  setting,
} from "@/sdk/src/contract/limits";

const KiB = 1024;
const MiB = 1024 * KiB;

export const LIMITS = {
  // ── Sources ──
  TOOLS_PER_SOURCE: HOST.TOOLS_PER_SOURCE,
  SDK_REGISTRATION_BODY_BYTES: HOST.SDK_REGISTRATION_BODY_BYTES,
  SDK_TOOL_INPUT_SCHEMA_BYTES: HOST.SDK_TOOL_INPUT_SCHEMA_BYTES,
  MCP_CONNECTION_NAME_CHARS: setting(100, "MCP Connection name"),
  SOURCE_NAME_CHARS: setting(100, "Source name"),
  IDENTITIES_PER_CONNECTION: setting(1000, "Agent Identities assigned to one MCP Connection"),

  // ── Catalog checks ──
  CHECK_WALL_CLOCK_MS: setting(30_000, "one complete catalog check"),
  CHECK_PAGES: setting(128, "pages in one catalog check"),
  CHECK_TOOLS: setting(4096, "Tools in one catalog check"),
  CHECK_DEFINITION_BYTES: setting(4 * MiB, "Tool definitions in one catalog check"),
  // A Source's resources, resource templates and prompts, listed by the same check after its
  // Tools, within the check's wall clock. Passing one of these keeps the list up to it
  // (`truncated`) and never fails the check: only the Tools are the catalog.
  CHECK_SURFACE_PAGES: setting(128, "pages of each resource, template or prompt list in one catalog check"),
  CHECK_SURFACE_ITEMS: setting(4096, "resources, templates or prompts one catalog check records from each list"),
  CHECK_SURFACE_BYTES: setting(
    4 * MiB,
    "resource, template and prompt definitions one catalog check records, all three lists together",
  ),
  TOOL_DEFINITION_BYTES: HOST.TOOL_DEFINITION_BYTES,
  TOOL_NAME_MIN_CHARS: HOST.TOOL_NAME_MIN_CHARS,
  TOOL_NAME_MAX_CHARS: HOST.TOOL_NAME_MAX_CHARS,
  TOOL_DESCRIPTION_CHARS: HOST.TOOL_DESCRIPTION_CHARS,
  SCHEMA_DEPTH: HOST.SCHEMA_DEPTH,
  SCHEMA_NODES: HOST.SCHEMA_NODES,

  // ── Tool Calls ──
  CALL_TOP_LEVEL_ARGUMENTS: HOST.CALL_TOP_LEVEL_ARGUMENTS,
  REMOTE_RESPONSE_BYTES: setting(4 * MiB, "one remote response as received, counted after decompression"),
  TOOL_RESULT_BYTES: setting(2 * MiB, "an accepted Tool Result"),
  TOOL_RESULT_TEXT_BLOCKS: setting(32, "text blocks in a Tool Result"),
  TOOL_RESULT_TEXT_BLOCK_CHARS: setting(1_048_576, "characters in one Tool Result text block"),
  SDK_RESULT_SUBMISSION_BYTES: HOST.SDK_RESULT_SUBMISSION_BYTES,
  SDK_RESULT_OUTPUT_CHARS: HOST.SDK_RESULT_OUTPUT_CHARS,
  TOOL_CALL_MS: HOST.TOOL_CALL_MS,
  TOOL_CALL_TIMEOUT_DEFAULT_SECONDS: HOST.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS,
  TOOL_CALL_TIMEOUT_MAX_SECONDS: HOST.TOOL_CALL_TIMEOUT_MAX_SECONDS,
  TOOL_HOST_COLLECT_WAIT_SECONDS: HOST.TOOL_HOST_COLLECT_WAIT_SECONDS,
  TOOL_HOST_COLLECT_CALLS: HOST.TOOL_HOST_COLLECT_CALLS,
  TOOL_HOST_WATCHED_CALLS: HOST.TOOL_HOST_WATCHED_CALLS,
  // Wake-ups reach waiters at once (in-process, and across instances by LISTEN/NOTIFY:
  // decision 0085); this reading of the database is only what a lost wake-up costs.
  TOOL_HOST_WAKE_POLL_MS: setting(
    1_000,
    "how often a call waiting for its SDK Tool Host, a host's collection and its cancellation watch read the database in case a wake-up was lost",
  ),
  TOOL_HOST_COLLECT_HEARTBEAT_MS: setting(
    1_000,
    "a host process's collections count as its heartbeat at most this often on one instance (more often, nothing is written)",
  ),
  TOOL_PROGRESS_MESSAGE_CHARS: HOST.TOOL_PROGRESS_MESSAGE_CHARS,
  TOOL_PROGRESS_INTERVAL_MS: HOST.TOOL_PROGRESS_INTERVAL_MS,
  TOOL_HOST_PROGRESS_REPORTS: HOST.TOOL_HOST_PROGRESS_REPORTS,

  // ── /mcp ──
  MCP_TOOLS_PAGE: setting(500, "Tools in one page of /mcp tools/list"),
  MCP_SOURCE_LIST_PAGE: setting(500, "a Source's resources, templates or prompts in one page of an /mcp list"),
  // A few thousand tokens: what a model can be sent each turn beside the conversation.
  LISTING_BUDGET_BYTES: setting(
    32 * KiB,
    "default listing budget: catalog definitions tools/list sends an identity under a selection",
  ),
  LISTING_BUDGET_MAX_BYTES: setting(4 * MiB, "largest listing budget an operator may set for an identity"),
  LISTING_USAGE_DAYS: setting(
    30,
    "days of the call log a selection's most-used Tools are counted over (up to yesterday)",
  ),
  LISTING_TTL_MS: setting(60_000, "how long a 2026-07-28 client may cache tools/list (ttlMs)"),
  PINS_PER_IDENTITY: setting(500, "Tools an operator may pin for one identity"),
  MCP_REQUEST_BODY_BYTES: setting(4 * MiB, "one request body sent to /mcp"),

  // ── HTTP request bodies: server/http/body-limits.ts answers 413 before reading past these ──
  AUTH_REQUEST_BODY_BYTES: setting(64 * KiB, "one request body to /api/auth (sign-in, sign-out)"),
  // An identity's instructions may fill its 4 MiB budget; JSON escaping can double them.
  TRPC_REQUEST_BODY_BYTES: setting(8 * MiB, "one request body to /api/trpc (a batch of procedure calls)"),
  TOOL_HOST_REQUEST_BODY_BYTES: setting(
    64 * KiB,
    "a request body to the other SDK Tool Host endpoints (heartbeat, calls/next)",
  ),
  OTHER_REQUEST_BODY_BYTES: setting(64 * KiB, "a request body to any other path (console pages, health)"),
  // A client may send its whole body before it reads (a 413, a 401): closing on it with its
  // bytes unread would reset the connection and lose the answer, so they are read and dropped.
  EARLY_ANSWER_DRAIN_BYTES: setting(
    256 * MiB,
    "body bytes read and dropped after an early answer, before the connection is reset",
  ),
  EARLY_ANSWER_DRAIN_MS: setting(30_000, "longest the rest of a body is read and dropped after an early answer"),
  EARLY_ANSWER_DRAIN_IDLE_MS: setting(5_000, "a client silent this long after an early answer is hung up on"),
  // Outside Tool schemas (SCHEMA_DEPTH): serializing deeper JSON would overflow the stack.
  JSON_DEPTH: setting(
    128,
    "levels of JSON read from a client or a Source: tRPC input, Tool Call arguments, Tool Results",
  ),

  // ── Console sign-in (server/auth/sign-in-throttle.ts) ──
  SIGN_IN_FREE_FAILURES: setting(5, "failed sign-ins for one account from one client address before back-off starts"),
  SIGN_IN_BACKOFF_MAX_SECONDS: setting(15 * 60, "longest wait the back-off imposes between two sign-in attempts"),
  SIGN_IN_ADDRESS_FAILURES: setting(50, "failed sign-ins from one client address, any account, before it backs off"),
  SIGN_IN_ACCOUNT_FAILURES: setting(
    20,
    "failed sign-ins for one account from every address before new addresses back off",
  ),

  // ── Agent Identities ──
  IDENTITY_BUDGET_BYTES: setting(4 * MiB, "model-facing Tool definitions plus instructions of one Agent Identity"),
  LOSSES_WINDOW_DAYS: setting(30, "how far back Lost recently looks"),
  REVIEW_DECISION_TOOLS: setting(500, "Tools one review decision names (approve all of a Source has no ceiling)"),

  // ── Memory ──
  MEMORY_BODY_BYTES: contract(64 * KiB, "one memory body, UTF-8 bytes (MEMORY_TOO_LARGE beyond)"),
  MEMORY_TAGS: setting(32, "tags on one memory"),
  MEMORY_TAG_CHARS: setting(64, "characters in one tag"),
  MEMORY_FACTS: setting(64, "facts one memory may state"),
  FACT_TERM_CHARS: setting(200, "characters in a fact's subject or predicate"),
  FACT_VALUE_CHARS: setting(2000, "characters in a fact's value"),
  SCOPE_NAME_CHARS: setting(100, "scope name"),
  THREAD_NAME_CHARS: setting(100, "thread name"),
  SEARCH_QUERY_CHARS: setting(1000, "characters in one memory search query"),
  SEARCH_RESULTS: setting(50, "hits one memory search returns"),
  SEARCH_BODY_CHARS: setting(65_536, "characters of each hit's body a search may return (the caller picks fewer)"),
  GET_MANY_MEMORIES: setting(100, "memories one batched read returns"),
  SCOPE_IMPORT_BYTES: setting(64 * MiB, "one scope import (JSON Lines)"),

  // ── Console and API ──
  API_KEY_NAME_CHARS: setting(100, "API key name"),
  USER_NAME_CHARS: setting(100, "user display name"),
  PASSWORD_MIN_CHARS: setting(12, "console password, minimum"),
  PASSWORD_MAX_CHARS: setting(128, "console password, maximum"),
  PAGE_SIZE_MAX: setting(500, "rows in one page of a list API"),

  // ── Pooled Source sessions (server/domain/catalog/source-sessions.ts) ──
  SOURCE_SESSIONS: setting(4, "open MCP sessions one instance keeps with one MCP Connection"),
  SOURCE_SESSION_CALLS: setting(
    16,
    "calls in flight on one pooled session before another session to the same Source is opened",
  ),
  SOURCE_SESSION_IDLE_MS: setting(5 * 60_000, "a pooled session unused this long is closed"),
  SOURCE_PROBE_MS: setting(
    10_000,
    "longest a Source's answer to the 2026-07-28 probe (server/discover) is awaited before falling back to initialize",
  ),
  SOURCE_REPROBE_MS: setting(
    60 * 60_000,
    "how long a catalog check trusts a Source's remembered 2025-era verdict before probing for 2026-07-28 again",
  ),
  CONFIRMATION_TTL_SECONDS: setting(
    600,
    "how long a confirmation asked of an agent's client (its requestState) stays valid; its retry must come within it",
  ),
  APPROVAL_TTL_SECONDS: setting(
    86_400,
    "how long a call parked for approval waits for an approver, and an approved one for the agent's retry",
  ),
  APPROVAL_RETRY_AFTER_SECONDS: setting(30, "when an agent whose call waits for approval is told to retry it"),
  // An approval's task runs its call on the poll that finds it approved; the result is kept
  // (sealed) so a later poll reads it rather than the call running twice (decision 0094).
  APPROVAL_RESULT_KEEP_SECONDS: setting(
    3_600,
    "how long the result of an approved call run for its task is kept for the agent's later polls",
  ),
  APPROVAL_RESULT_BYTES: setting(
    256 * KiB,
    "the largest result of an approved call kept for later polls of its task (a larger one is answered once)",
  ),
  TASK_HANDLE_TTL_SECONDS: setting(
    86_400,
    "how long the task id Quartermaster gives an agent for a task (on a Source, or a call waiting for approval) is honoured",
  ),
  CALL_ROUTE_CACHE_MS: setting(
    1_000,
    "how long an instance reuses a Tool Call's lookups (identity budget state, Tool, network policy) before reading them again",
  ),
  AGENT_TOKEN_CACHE_MS: setting(
    5_000,
    "how long an instance trusts an agent token it has looked up (another instance's revocation takes this long)",
  ),

  // ── Call log and rate limits (docs/decisions/0027-call-log.md, 0028-rate-limits.md) ──
  CALL_LOG_FLUSH_MS: setting(200, "longest a finished Tool Call waits in memory before its call log row is written"),
  CALL_LOG_FLUSH_ROWS: setting(500, "call log rows written in one batch (a full buffer is written at once)"),
  CALL_LOG_BUFFER_ROWS: setting(
    20_000,
    "call log rows held while the database cannot take them; older ones are dropped",
  ),
  CALL_LOG_RETENTION_DAYS_DEFAULT: setting(30, "how long call log rows are kept unless an admin says otherwise"),
  CALL_LOG_RETENTION_DAYS_MAX: setting(400, "longest call log retention an admin may set"),
  CALL_PAYLOAD_RETENTION_DAYS_MAX: setting(30, "longest an admin may keep captured arguments and results"),
  CALL_PAYLOAD_CHARS: setting(65_536, "characters of arguments, and of a result, that payload capture keeps per call"),
  CALL_PAYLOAD_ID_CANDIDATES: setting(
    10_000,
    "strings of one captured call looked up as memory ids; a call naming more keeps no payload",
  ),
  CALL_STATS_DAYS: setting(30, "days the call statistics of an identity, Source or Tool look back"),
  RATE_LIMIT_PER_MINUTE_MAX: setting(1_000_000, "highest calls-per-minute limit"),
  RATE_LIMIT_CONCURRENT_MAX: setting(10_000, "highest concurrent-calls limit"),
  RATE_LIMIT_CONFIG_MS: setting(
    5_000,
    "how long an instance enforces the rate limits it read before reading them again",
  ),
  // ── /mcp memory tools (issue 12) ──
  BRIEFING_ITEMS: setting(
    10,
    "entries of each kind one briefing returns (pinned, decisions, threads, proposals, handoffs)",
  ),
  BRIEFING_BODY_CHARS: setting(400, "characters of each memory body a briefing returns (truncated beyond)"),
  DEBRIEF_ITEMS: setting(20, "learned items, and decisions, one debrief may record"),
  // ── Retention (issue 31) ──
  RETENTION_DAYS_MAX: contract(3650, "days a retention rule may keep memories (at least 1)"),
  RETENTION_PREVIEW_ITEMS: setting(1000, "memories a retention preview lists by id (the count is always exact)"),
  RETENTION_BATCH: setting(500, "memories one scheduler round erases under one scope's rules"),
  // The resource-link evidence (docs/decisions/0091): did an agent read in full a memory
  // search or briefing returned truncated, and which client was it.
  MEMORY_LINK_FOLLOW_MINUTES: setting(
    30,
    "after a truncated return, how long a read of that memory by the same identity and token counts as following it",
  ),
  MEMORY_LINK_EVIDENCE_DAYS: setting(30, "days truncated returns are kept for the follow rate (swept after)"),
  MEMORY_LINK_EVIDENCE_ROWS: setting(
    100_000,
    "truncated returns kept for the follow rate in all (the oldest go first past it)",
  ),
  MEMORY_SCREENING_BACKFILL_BATCH: setting(500, "memories written before screening that one scheduler round screens"),
  CATALOG_ARGUMENT_VALIDATORS: setting(
    500,
    "compiled input-schema validators /mcp keeps per process (least recently used go)",
  ),

  // ── Tool selection (confusable Tools, find_tools; decisions 0040–0041) ──
  TOOL_INDEX_CACHE_ENTRIES: setting(
    32,
    "Tool indexes (identities' holdings, the catalog) one instance keeps in memory",
  ),
  TOOL_SEARCH_SEGMENTS: setting(1024, "Sources whose Tools find_tools keeps indexed in one instance's memory"),
  FIND_TOOLS_DEFINITION_CACHE: setting(
    5_000,
    "Tool definitions find_tools keeps per process for the Tools it returns (least recently used go)",
  ),
  TOOL_SEARCH_STALE_SEGMENT_TOOLS: setting(
    1000,
    "Tools from which a Source's previous find_tools index answers while its new one is built",
  ),
  CONFUSABLE_MIN_SIMILARITY: setting(
    0.4,
    "similarity (cosine) from which two Tools of an identity are shown as confusable",
  ),
  CONFUSABLE_PAIRS: setting(20, "confusable pairs shown for one identity, most similar first"),
  TOOL_NEIGHBOURS: setting(10, "nearest neighbours shown on a Tool's page"),
  // An agent sends find_tools the whole request its user made, not two keywords.
  FIND_TOOLS_QUERY_CHARS: contract(2000, "characters in one find_tools query"),
  FIND_TOOLS_RESULTS: contract(50, "matches one find_tools call may return"),

  // ── Console for daily work (issue 15) ──
  SOURCE_CHANGES_SHOWN: setting(20, "configuration changes shown beside a failing Source's failure"),
  BUDGET_SNAPSHOTS_SHOWN: setting(500, "budget snapshots an identity's chart draws"),

  // ── OAuth for /mcp (decision 0071) ──
  OAUTH_ACCESS_TOKEN_SECONDS: setting(3600, "seconds an OAuth access token for /mcp is valid"),
  OAUTH_REFRESH_TOKEN_SECONDS: setting(30 * 24 * 3600, "seconds an OAuth refresh token is valid"),
  OAUTH_CODE_SECONDS: setting(60, "seconds an OAuth authorization code may wait to be exchanged"),
  OAUTH_REGISTRATIONS_PER_MINUTE: setting(
    10,
    "OAuth clients one client address may register a minute (dynamic client registration, across instances)",
  ),
  // Client ID Metadata Documents (decision 0080): fetched when a client names one as its
  // client_id, by anyone, before anyone signs in, so each fetch is small and short.
  OAUTH_METADATA_DOCUMENT_BYTES: contract(
    5 * KiB,
    "an OAuth client's metadata document (the draft's suggested bound; clients publish to it)",
  ),
  OAUTH_METADATA_DOCUMENT_MS: setting(5_000, "fetching an OAuth client's metadata document, connect to last byte"),
  OAUTH_METADATA_CACHE_MIN_SECONDS: setting(
    60,
    "shortest time a fetched metadata document is kept (its Cache-Control max-age, or none, below this counts as this)",
  ),
  OAUTH_METADATA_CACHE_MAX_SECONDS: setting(
    3600,
    "longest time a fetched metadata document is kept, whatever its max-age (a withdrawn redirect URI stops within it)",
  ),
  OAUTH_METADATA_FAILURE_SECONDS: setting(
    10,
    "seconds a failed metadata-document fetch is answered from memory before the document is fetched again",
  ),
  OAUTH_METADATA_CACHE_ENTRIES: setting(1000, "metadata documents one instance keeps in memory"),
  OAUTH_METADATA_FETCHES_PER_MINUTE: setting(
    20,
    "metadata documents one client address may have us fetch a minute (kept ones are free; across instances)",
  ),
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** The value of a limit, for code that compares against it. */
export function limit(name: LimitName): number {
  return LIMITS[name].value;
}

export { RESERVED_ARGUMENT_PREFIX };

/** Model-facing Tool names valid for the major model APIs. */
export const MODEL_FACING_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
