/**
 * A load balancer in front of several instances, behaving as the usual ones do (nginx's
 * defaults, a cloud balancer's health checks): round robin over the instances whose
 * /api/ready answers 200 (polled every `pollMs`); a connection that is refused or reset
 * before the request was sent is retried on the next instance (nothing was sent, so that
 * is safe); a request that fails after it was sent is answered 502 and not retried (a
 * tools/call is not idempotent). A new upstream connection per request, as nginx does by
 * default. It sets X-Forwarded-For/-Proto/-Host, and records every request: where it went,
 * when, and how it ended.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Passed {
  upstream: string;
  startedAt: number;
  endedAt: number;
  /** Upstream status, or null when the upstream failed after the request was sent. */
  status: number | null;
  error?: string;
}

export interface Balancer {
  url: string;
  /** Requests to /mcp and the API, not the balancer's own readiness polls. */
  passed: Passed[];
  setUpstreams(urls: string[]): void;
  /** The instances getting traffic now. */
  inRotation(): string[];
  close(): Promise<void>;
}

export async function startBalancer(options: { pollMs?: number } = {}): Promise<Balancer> {
  const pollMs = options.pollMs ?? 250;
  let upstreams: string[] = [];
  const ready = new Map<string, boolean>();
  const passed: Passed[] = [];
  let next = 0;

  // An instance that answers "not ready" leaves at once; one that does not answer in time
  // (a loaded machine) only after FAILS_TO_LEAVE polls in a row, as health checks' thresholds do.
  const FAILS_TO_LEAVE = 3;
  const silent = new Map<string, number>();
  const polling = new Set<string>();
  const poll = setInterval(() => {
    for (const u of upstreams) {
      if (polling.has(u)) continue;
      polling.add(u);
      void fetch(`${u}/api/ready`, { signal: AbortSignal.timeout(2_000) })
        .then(
          (r) => {
            silent.set(u, 0);
            ready.set(u, r.status === 200);
          },
          (error: Error) => {
            const refused = /ECONNREFUSED/.test(String((error.cause as Error | undefined)?.message ?? error));
            const misses = (silent.get(u) ?? 0) + 1;
            silent.set(u, misses);
            if (refused || misses >= FAILS_TO_LEAVE) ready.set(u, false);
          },
        )
        .finally(() => polling.delete(u));
    }
  }, pollMs);

  const pick = (tried: Set<string>) => {
    const live = upstreams.filter((u) => ready.get(u) && !tried.has(u));
    if (!live.length) return null;
    return live[next++ % live.length] ?? null;
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const tried = new Set<string>();
    for (;;) {
      const upstream = pick(tried);
      if (!upstream) {
        res.writeHead(503, { "content-type": "text/plain" }).end("no instance is ready");
        return;
      }
      tried.add(upstream);
      const record: Passed = { upstream, startedAt: Date.now(), endedAt: 0, status: null };
      const outcome = await new Promise<"sent" | "retry">((resolve) => {
        const target = new URL(req.url ?? "/", upstream);
        const forwarded = req.headers["x-forwarded-for"];
        const headers = {
          ...req.headers,
          // Host as the client sent it (the public name); the instances trust this balancer's forwarding headers.
          "x-forwarded-for": `${forwarded ? `${forwarded}, ` : ""}${req.socket.remoteAddress}`,
          "x-forwarded-proto": "http",
          "x-forwarded-host": req.headers.host ?? "",
          "content-length": String(body.length),
          connection: "close",
        };
        let sent = false;
        const out = http.request(target, { method: req.method, headers, agent: false }, (up) => {
          record.status = up.statusCode ?? 0;
          const { connection: _c, "keep-alive": _k, ...rest } = up.headers;
          res.writeHead(up.statusCode ?? 502, rest);
          up.pipe(res);
          up.on("error", (error) => {
            record.status = null;
            record.error = `response cut: ${error.message}`;
            record.endedAt = Date.now();
            res.destroy();
            resolve("sent");
          });
          up.on("end", () => {
            record.endedAt = Date.now();
            resolve("sent");
          });
        });
        out.on("error", (error: NodeJS.ErrnoException) => {
          if (!sent || error.code === "ECONNREFUSED") {
            ready.set(upstream, false); // passive health check: out of rotation until it answers ready again
            resolve("retry");
            return;
          }
          record.status = null;
          record.error = error.message;
          record.endedAt = Date.now();
          if (!res.headersSent)
            res.writeHead(502, { "content-type": "text/plain" }).end(`upstream failed: ${error.message}`);
          else res.destroy();
          resolve("sent");
        });
        out.on("socket", (socket) =>
          socket.once("connect", () => {
            sent = true;
          }),
        );
        out.end(body);
      });
      if (outcome === "sent") {
        passed.push(record);
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    passed,
    setUpstreams(urls) {
      upstreams = urls;
    },
    inRotation: () => upstreams.filter((u) => ready.get(u)),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(poll);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
