/**
 * The limits an SDK Tool Host meets, defined once for Quartermaster and the SDK: the
 * server's `server/limits.ts` takes these entries from here, and the SDK checks a
 * registration or a result against the same values before sending it. `contract` limits
 * are part of the versioned API; `setting` limits are release settings a release may change
 * (the server refuses what breaks them whatever an older SDK believed).
 */

export type LimitClass = "contract" | "setting";
export interface Limit {
  readonly class: LimitClass;
  readonly value: number;
  readonly description: string;
}
export const contract = (value: number, description: string): Limit => ({ class: "contract", value, description });
export const setting = (value: number, description: string): Limit => ({ class: "setting", value, description });

const KiB = 1024;
const MiB = 1024 * KiB;

export const TOOL_HOST_LIMITS = {
  // ── Registration ──
  TOOLS_PER_SOURCE: contract(4096, "Tools one Source may publish"),
  SDK_REGISTRATION_BODY_BYTES: contract(4 * MiB, "SDK Tool Host registration request body"),
  SDK_TOOL_INPUT_SCHEMA_BYTES: contract(16 * KiB, "one SDK Tool's input schema, serialized"),
  TOOL_DEFINITION_BYTES: setting(512 * KiB, "one Tool definition"),
  TOOL_NAME_MIN_CHARS: setting(1, "native Tool name, minimum"),
  TOOL_NAME_MAX_CHARS: setting(128, "native Tool name, maximum"),
  TOOL_DESCRIPTION_CHARS: setting(4096, "Tool description"),
  SCHEMA_DEPTH: setting(64, "levels of a Tool's JSON Schemas"),
  SCHEMA_NODES: setting(100_000, "JSON nodes across a Tool's input and output schemas"),
  HOST_INFO_CHARS: contract(128, "a registration's hostInfo name or version"),

  // ── Calls and results ──
  CALL_TOP_LEVEL_ARGUMENTS: setting(256, "top-level properties of Tool Call arguments"),
  SDK_RESULT_SUBMISSION_BYTES: setting(4 * MiB, "one SDK Tool Result submission"),
  SDK_RESULT_OUTPUT_CHARS: setting(1_048_576, "an SDK Tool Result's output as the model reads it"),
  // Not in the spec's table: without it a Source that never answers would hold the agent's request open.
  // Under the 60 s request timeout MCP clients default to, like an SDK Tool's default deadline:
  // the agent is told TOOL_CALL_TIMEOUT, which a model can act on, not "Request timed out".
  TOOL_CALL_MS: setting(
    50_000,
    "one proxied Tool Call to an MCP Connection, from connecting to the Source to its answer",
  ),
  // Under the 60 s request timeout MCP clients default to, so an agent is told TOOL_CALL_TIMEOUT
  // (which a model can act on) rather than its client's own "Request timed out".
  TOOL_CALL_TIMEOUT_DEFAULT_SECONDS: setting(
    50,
    "an SDK Tool's call deadline when its host declares no timeoutSeconds for it",
  ),
  TOOL_CALL_TIMEOUT_MAX_SECONDS: setting(300, "the longest call deadline (timeoutSeconds) an SDK Tool may declare"),
  TOOL_HOST_COLLECT_WAIT_SECONDS: setting(25, "longest wait of one call collection (under common 30 s proxy timeouts)"),
  TOOL_HOST_COLLECT_CALLS: setting(16, "calls handed to an SDK Tool Host in one collection"),
  TOOL_HOST_WATCHED_CALLS: setting(1024, "calls in flight one cancellation watch of an SDK Tool Host may name"),

  // ── Progress (docs/decisions/0086) ──
  TOOL_PROGRESS_MESSAGE_CHARS: setting(500, "characters in the message of one progress report"),
  // Each report is a database write, and an agent's client re-renders on each notification.
  TOOL_PROGRESS_INTERVAL_MS: setting(
    250,
    "shortest time between two progress reports Quartermaster takes for one call",
  ),
  TOOL_HOST_PROGRESS_REPORTS: setting(64, "progress reports in one request of an SDK Tool Host"),
} as const satisfies Record<string, Limit>;

/** Reserved top-level argument names (contract): anything starting with two underscores. */
export const RESERVED_ARGUMENT_PREFIX = "__";
