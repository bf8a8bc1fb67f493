/**
 * Agent tokens recently seen at /mcp, so an agent's every request does not look its token
 * up again: a token's row changes only when it is revoked (or its identity deleted), and
 * this instance's revocations evict it at once. Another instance's revocation takes effect
 * here within AGENT_TOKEN_CACHE_MS (docs/decisions/0015).
 *
 * On globalThis: the custom server and Next's bundled routes are separate module graphs in
 * one process (decision 0004), and a revocation through tRPC must evict what /mcp cached.
 */
import type { Actor } from "../../actor";
import { LIMITS } from "../../limits";

type AgentActor = Extract<Actor, { kind: "agent" }>;
type Entry = { actor: AgentActor; until: number };

const KEY = Symbol.for("quartermaster.agentTokenCache");
const store = globalThis as unknown as { [KEY]?: Map<string, Entry> };
if (!store[KEY]) store[KEY] = new Map<string, Entry>();
const cache: Map<string, Entry> = store[KEY];
// Bounded: past this many tokens, the oldest entries go (a Map iterates in insertion order).
const MOST = 10_000;

export function cachedAgent(hash: string, now = Date.now()): AgentActor | null {
  const entry = cache.get(hash);
  if (!entry) return null;
  if (entry.until <= now) {
    cache.delete(hash);
    return null;
  }
  return entry.actor;
}

export function cacheAgent(hash: string, actor: AgentActor, now = Date.now()): void {
  const ttl = LIMITS.AGENT_TOKEN_CACHE_MS.value;
  if (ttl <= 0) return;
  if (cache.size >= MOST) {
    for (const key of cache.keys()) {
      cache.delete(key);
      if (cache.size < MOST * 0.9) break;
    }
  }
  cache.set(hash, { actor, until: now + ttl });
}

/** Forgets a revoked token, or every token of a deleted identity. */
export function evictAgentTokens(match: { tokenId?: string; identityId?: string }): void {
  for (const [hash, { actor }] of cache) {
    if (actor.tokenId === match.tokenId || actor.identityId === match.identityId) cache.delete(hash);
  }
}
