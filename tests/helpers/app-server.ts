/**
 * The product's HTTP routes behind the product's own front (server/http/front.ts: request
 * ids, client address, body bounds, security headers), on a loopback port: what a client
 * meets over the network, minus Next.js's page rendering. Routes are mounted as app/
 * mounts them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { trustedProxyList } from "@/env";
import { handleAuthRequest } from "@/server/auth/handler";
import { handleApprove } from "@/server/auth/oauth-approve";
import { createFrontServer } from "@/server/http/front";
import { handleMetrics } from "@/server/http/metrics-endpoint";
import { handleDiscovery, isDiscoveryPath } from "@/server/http/oauth-discovery";
import {
  handleCallResults,
  handleCancellations,
  handleCollectCalls,
  handleGoodbye,
  handleHeartbeat,
  handleProgress,
  handleRegistration,
  unknownEndpoint,
} from "@/server/http/tool-host-api";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { handleTrpcRequest } from "@/server/trpc/handler";

type Route = (request: Request) => Promise<Response> | Response;

function route(method: string, pathname: string): Route {
  if (pathname.startsWith("/api/auth/")) return handleAuthRequest;
  if (pathname === "/api/oauth/approve") return handleApprove;
  if (pathname.startsWith("/api/trpc/")) return handleTrpcRequest;
  if (pathname === "/mcp") return method === "POST" ? handleMcpPost : handleMcpOther;
  if (pathname === "/api/metrics") return handleMetrics;
  if (isDiscoveryPath(pathname)) return handleDiscovery;
  const hosts: Record<string, Route> = {
    "/api/v1/tool-hosts/registration": handleRegistration,
    "/api/v1/tool-hosts/heartbeat": handleHeartbeat,
    "/api/v1/tool-hosts/calls/next": handleCollectCalls,
    "/api/v1/tool-hosts/calls/results": handleCallResults,
    "/api/v1/tool-hosts/calls/cancelled": handleCancellations,
    "/api/v1/tool-hosts/calls/progress": handleProgress,
    "/api/v1/tool-hosts/goodbye": handleGoodbye,
  };
  if (hosts[pathname]) return hosts[pathname];
  if (pathname.startsWith("/api/v1/tool-hosts/")) return unknownEndpoint;
  return () =>
    new Response("<!doctype html><title>Quartermaster</title>", { headers: { "content-type": "text/html" } });
}

async function toWeb(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = `http://${req.headers.host}${req.url}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
  const response = await route(req.method ?? "GET", new URL(url).pathname)(request);
  if (res.headersSent) return;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.writeHead(response.status);
  if (response.body) Readable.fromWeb(response.body as never).pipe(res);
  else res.end();
}

export async function serveApp(options: { trustedProxies?: string[] } = {}) {
  const server = createFrontServer(toWeb, {
    dev: false,
    trustedProxies: trustedProxyList(options.trustedProxies ?? []),
    https: false,
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
