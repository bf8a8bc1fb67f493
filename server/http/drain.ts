/**
 * Leaving a load balancer's pool without losing a request. After SIGTERM the instance
 * answers /api/ready with 503 but keeps listening, and keeps its connections, until its
 * balancer has noticed: until no request (other than a probe) has come for DRAIN_QUIET_MS,
 * or DRAIN_LEAVE_POOL_MAX_MS at most. Only then does it stop listening (watchConnections);
 * a balancer that still tries it meets a refused connection, which it retries elsewhere
 * (nothing was sent), never a request cut off half way.
 */
import type http from "node:http";
import net from "node:net";
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

interface Connection {
  /** Requests being answered on it now. */
  active: number;
  /** Whether a request has come on it yet. */
  used: boolean;
  acceptedAt: number;
}

/**
 * Stops listening without resetting a request on its way, then lets the connections end,
 * cutting what is left at `until` (epoch ms).
 *
 * A proxy that learns of a leaving instance only by a failed connection (nginx) keeps
 * sending until the listener closes, and a listener that closes resets every connection
 * the kernel has completed but the process not yet accepted: a request sent on one is
 * lost (nginx answers 502 and does not retry a POST). No server can close that window;
 * a proxy that keeps its connections (nginx's upstream `keepalive`, docs/deploy.md) barely
 * opens new ones, so nothing is queued when the listener closes. Hence the order:
 * 1. the listener closes right after an accept round (what the kernel had queued is taken);
 * 2. from then on every answer carries `Connection: close`, so the proxy's next request to
 *    this instance needs a new connection, which is refused: it retries that elsewhere,
 *    nothing sent, and stops choosing this instance;
 * 3. a connection with no request in progress is ended (FIN, not a reset) only once no
 *    request has come for DRAIN_QUIET_MS (the proxy has moved on; ending a kept connection
 *    it is about to reuse would lose that request), or, never used, after DRAIN_FIRST_REQUEST_MS.
 * (Node's own `server.close()` ends every idle kept connection at once.)
 */
export function watchConnections(
  server: http.Server,
  traffic: Traffic,
): {
  /** Whether the listener has closed: every answer then closes its connection. */
  closing(): boolean;
  /** Resolves once every connection has ended; with the number of requests cut at `until`. */
  close(until: number): Promise<number>;
} {
  const open = new Map<net.Socket, Connection>();
  let closedAt: number | null = null;
  server.on("connection", (socket: net.Socket) => {
    open.set(socket, { active: 0, used: false, acceptedAt: Date.now() });
    socket.once("close", () => open.delete(socket));
  });
  const started = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (closedAt !== null) res.setHeader("connection", "close");
    const c = open.get(req.socket);
    if (!c) return;
    c.active++;
    c.used = true;
    res.once("close", () => c.active--);
  };
  // Before the routes' handler, so even an answer it writes at once closes its connection.
  server.prependListener("request", started);
  server.prependListener("checkContinue", started);

  return {
    closing: () => closedAt !== null,
    async close(until) {
      // After the poll phase that accepted what the kernel had queued (setImmediate runs next).
      await new Promise((resolve) => setImmediate(resolve));
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      closedAt = Date.now();
      const quietMs = INSTANCE_LIMITS.DRAIN_QUIET_MS.value;
      const firstRequestMs = INSTANCE_LIMITS.DRAIN_FIRST_REQUEST_MS.value;
      while (open.size > 0 && Date.now() < until) {
        const now = Date.now();
        const quiet = now - Math.max(traffic.lastRequestAt(), closedAt) >= quietMs;
        for (const [socket, c] of open) {
          if (c.active > 0 || socket.writableEnded) continue;
          if (quiet || (!c.used && now - c.acceptedAt >= firstRequestMs)) {
            socket.end();
            setTimeout(() => socket.destroy(), 1_000).unref();
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      let cut = 0;
      for (const [socket, c] of open) {
        if (c.active > 0) cut++;
        socket.destroy();
      }
      await closed;
      return cut;
    },
  };
}
