/**
 * What a Tool Call at /mcp looks up before it reaches the Source — the identity and its
 * budget state, the Tool by model-facing name, the network policy — kept for
 * CALL_ROUTE_CACHE_MS, so an agent's calls do not each read the database three times
 * (docs/decisions/0016). Any change this instance makes that could alter a route
 * (assignments, identities, catalogs, Sources, host silence, the network policy) drops all
 * of it at once (each area announces its changes: server/events.ts); another instance's change takes effect here within that
 * time. On globalThis: the console's writes (tRPC bundle) and /mcp (front server) are
 * separate module graphs in one process (decision 0004).
 */
import { onChange } from "../../events";
import { LIMITS } from "../../limits";

type Entry = { until: number; value: Promise<unknown> };
const KEY = Symbol.for("quartermaster.callRouteCache");
const store = globalThis as unknown as { [KEY]?: Map<string, Entry> };
if (!store[KEY]) store[KEY] = new Map<string, Entry>();
const cache: Map<string, Entry> = store[KEY];
const MOST = 50_000;

/**
 * The cached outcome of `load` for `key` (a value or the error it threw, so a refusal such as
 * Over budget is cached too), loading it at most once at a time.
 */
export function routed<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const ttl = LIMITS.CALL_ROUTE_CACHE_MS.value;
  if (ttl <= 0) return load();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.value as Promise<T>;
  if (cache.size >= MOST) cache.clear();
  const value = load();
  cache.set(key, { until: now + ttl, value });
  // A failure that is not a refusal (the database went away) is not kept.
  value.catch((error: unknown) => {
    if (!(error as { code?: unknown })?.code) cache.delete(key);
  });
  return value;
}

// Something a route depends on changed on this instance: every route is looked up afresh.
onChange("call-route-cache", () => cache.clear());
