/**
 * The server's entry to the limits: the table itself is universal/limits.ts (the console shows
 * the same values and labels), and the settings only a running instance reads are here.
 */
import { type Limit, setting } from "@/sdk/src/contract/limits";

export * from "@/universal/limits";

// ── Several instances on one database (docs/deploy.md) ──
export const INSTANCE_LIMITS = {
  /**
   * A catalog check's lease unless its heartbeat renews it: how soon another instance takes
   * over the checks of one that died. Renewed every third of it, so two heartbeats may be
   * missed (a busy event loop, a slow commit) before it lapses.
   */
  CHECK_LEASE_MS: setting(15_000, "a catalog check's lease between heartbeats"),
  /** How often each instance's scheduler looks for due (or orphaned) checks. */
  SCHEDULER_ROUND_MS: setting(3_000, "between two scheduler rounds"),
  /** A consolidator pass's lease between heartbeats (a pass over 100,000 memories takes well under a minute). */
  MEMORY_LEASE_MS: setting(60_000, "a consolidator pass's lease between heartbeats"),
  /**
   * The embedded database has no autovacuum: the memory scheduler re-analyzes a search table
   * once this many rows (or a tenth of it, if more) changed since its statistics were taken.
   */
  MEMORY_STATISTICS_CHANGED_ROWS: setting(
    500,
    "rows of a memory search table changed before its statistics are refreshed",
  ),
  /**
   * After SIGTERM, the instance keeps answering (not ready, closing each connection) until no
   * request has come for this long: its load balancer has seen /api/ready fail and moved on.
   */
  DRAIN_QUIET_MS: setting(1_000, "without requests before a draining instance stops listening"),
  /** …but no longer than this, in case a balancer never looks at /api/ready. */
  DRAIN_LEAVE_POOL_MAX_MS: setting(5_000, "a draining instance keeps listening at most"),
  /**
   * Once a draining instance has stopped listening, a connection it accepted just before
   * gets this long for its first request (a proxy sends it at once) before it is ended.
   */
  DRAIN_FIRST_REQUEST_MS: setting(
    1_000,
    "for the first request on a connection accepted just before the listener closed",
  ),
  /**
   * At shutdown, the spans still buffered get this long to reach the collector: one that is
   * down or hangs must not hold the exit for the whole grace period.
   */
  TRACING_STOP_MS: setting(2_500, "sending the last spans at shutdown, at most"),
} as const satisfies Record<string, Limit>;
