/**
 * The HTTP server: Next.js (console, tRPC, /mcp, Tool Host API) behind a thin Node
 * server that adds request ids, request logs and a graceful shutdown, which
 * `next start` does not let us order (stop accepting → finish requests → stop
 * background work → close the database).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { log } from "../log";

export interface RunningServer {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

export async function startHttpServer(options: {
  dev: boolean;
  host: string;
  port: number;
  dir: string;
}): Promise<RunningServer> {
  const app = next({ dev: options.dev, dir: options.dir, hostname: options.host, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const server = http.createServer((req, res) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    const started = performance.now();
    const pathname = (req.url ?? "/").split("?")[0];
    res.on("finish", () => {
      const quiet = pathname?.startsWith("/_next/") || pathname === "/favicon.ico";
      log[quiet ? "debug" : "info"](
        {
          requestId,
          method: req.method,
          path: pathname,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        "request",
      );
    });
    handle(req, res).catch((error: unknown) => {
      log.error({ requestId, err: error }, "unhandled request error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: "INTERNAL", message: "Internal error.", requestId }));
    });
  });
  // Long Tool Calls and catalog checks answer slowly; keep sockets for them.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.address.includes(":") ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await app.close?.();
    },
  };
}
