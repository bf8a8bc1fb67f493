/**
 * The HTTP server: Next.js (console, tRPC, /mcp, Tool Host API) behind a thin Node
 * server: the front (front.ts: request ids and logs, client addresses, body bounds,
 * security headers) and a graceful shutdown, which `next start` does not let us order
 * (stop accepting → finish requests → stop background work → close the database).
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { env, trustedProxyList } from "@/env";
import { baseUrl } from "../auth";
import { log } from "../log";
import { type Traffic, watchConnections, watchTraffic } from "./drain";
import { createFrontServer } from "./front";
import { isMcpRequest, serveMcpDirect } from "./mcp-direct";

export interface RunningServer {
  url: string;
  server: http.Server;
  /** Requests being answered now, and when the last one (other than a probe) came. */
  traffic: Traffic;
  /** Stops listening, lets the requests in flight finish until `until` (epoch ms), then cuts them. */
  close(until?: number): Promise<void>;
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

  const https = baseUrl().startsWith("https:");
  const server = createFrontServer(
    (req, res) => (isMcpRequest(req) ? serveMcpDirect(req, res, https) : handle(req, res)),
    {
      dev: options.dev,
      trustedProxies: trustedProxyList(env.QM_TRUSTED_PROXIES),
      https,
    },
  );
  // Long Tool Calls and catalog checks answer slowly; keep sockets for them.
  server.keepAliveTimeout = 65_000;
  const traffic = watchTraffic(server);
  const connections = watchConnections(server, traffic);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.address.includes(":") ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    traffic,
    async close(until = Date.now() + 10_000) {
      const cut = await connections.close(until);
      if (cut) log.warn({ requests: cut }, "grace period over: cut the requests still running");
      await app.close?.();
    },
  };
}
