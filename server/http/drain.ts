/**
 * Leaving a load balancer's pool without losing a request. After SIGTERM the instance
 * answers /api/ready with 503 and closes every connection it answers on, but keeps
 * listening until its balancer has noticed: until no request (other than a probe) has come
 * for DRAIN_QUIET_MS, or DRAIN_LEAVE_POOL_MAX_MS at most. Only then does it stop
 * listening; a balancer that still tries it meets a refused connection, which it retries
 * elsewhere (nothing was sent), never a request cut off half way.
 */
import type http from "node:http";
import { INSTANCE_LIMITS } from "../limits";

export interface Traffic {
  inFlight(): number;
  /** Epoch ms of the last request that was not a probe. */
  lastRequestAt(): number;
}

const PROBES = new Set(["/api/ready", "/api/health"]);

export function watchTraffic(server: http.Server): Traffic {
  let inFlight = 0;
  let last = 0;
  const seen = (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++;
    if (!PROBES.has((req.url ?? "/").split("?")[0] ?? "/")) last = Date.now();
    res.once("close", () => inFlight--);
  };
  server.on("request", seen);
  server.on("checkContinue", seen);
  return { inFlight: () => inFlight, lastRequestAt: () => last };
}

/** Resolves once the balancer has stopped sending (quiet), or at the cap; returns how long it took. */
export async function leavePool(
  traffic: Traffic,
  options: { quietMs?: number; maxMs?: number } = {},
): Promise<{ waitedMs: number; quiet: boolean }> {
  const quietMs = options.quietMs ?? INSTANCE_LIMITS.DRAIN_QUIET_MS.value;
  const maxMs = options.maxMs ?? INSTANCE_LIMITS.DRAIN_LEAVE_POOL_MAX_MS.value;
  const started = Date.now();
  for (;;) {
    const now = Date.now();
    const quiet = now - Math.max(traffic.lastRequestAt(), started) >= quietMs;
    if (quiet || now - started >= maxMs) return { waitedMs: now - started, quiet };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
