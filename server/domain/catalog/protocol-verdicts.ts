/**
 * What each Source answered to version negotiation, remembered per instance so the next
 * connection skips the probe: a 2026-07-28 server's DiscoverResult, or "legacy" (it gave no
 * 2026 answer and was reached with initialize). Keyed by the Connection's address and
 * headers, so an edit forgets it. Pooled call sessions trust a verdict until it is refused;
 * catalog checks trust a legacy one for SOURCE_REPROBE_MS, then probe again so an upgraded
 * server is noticed (docs/decisions/0013, 0056) without paying a probe — up to
 * SOURCE_PROBE_MS for a server that never answers it — on every check.
 */
import { createHash } from "node:crypto";
import type { PriorDiscovery } from "@modelcontextprotocol/client";
import { LIMITS } from "../../limits";

interface Verdict {
  key: string;
  prior: PriorDiscovery;
  at: number;
}

const verdicts = new Map<string, Verdict>();

/** The address, headers and policy a verdict holds for. Headers are hashed: they hold credentials. */
export function connectionKey(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
}

export function rememberVerdict(sourceId: string, key: string, prior: PriorDiscovery, now = Date.now()): void {
  verdicts.set(sourceId, { key, prior, at: now });
}

/** The remembered verdict for connections with `key`, if any. */
export function verdictFor(sourceId: string, key: string): PriorDiscovery | undefined {
  const v = verdicts.get(sourceId);
  return v?.key === key ? v.prior : undefined;
}

/**
 * A verdict a catalog check may connect with instead of probing: a legacy one, while fresh.
 * A 2026 server is always probed: its probe replaces initialize (no extra round trip) and
 * brings its current capabilities.
 */
export function checkVerdictFor(sourceId: string, key: string, now = Date.now()): PriorDiscovery | undefined {
  const v = verdicts.get(sourceId);
  if (!v || v.key !== key || v.prior.kind !== "legacy") return undefined;
  return now - v.at < LIMITS.SOURCE_REPROBE_MS.value ? v.prior : undefined;
}

export function forgetVerdict(sourceId: string): void {
  verdicts.delete(sourceId);
}
