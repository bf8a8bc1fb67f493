/**
 * What every request passes through before any route sees it, whatever serves the routes
 * (Next.js in production, a test's router in the integration tests): a request id, the
 * client's address (forwarding headers believed only from trusted proxies), the body
 * bound of its route, the security headers, and one log line when it is answered.
 */

import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { BlockList } from "node:net";
import { fmtBytes } from "@/universal/format";
import { isDraining } from "../instance";
import { log } from "../log";
import { type BodyLimit, BoundedIncomingMessage, bodyLimitFor, writeTooLarge } from "./body-limits";
import { resolveClient } from "./client-address";
import { contentSecurityPolicy, newNonce, securityHeaders } from "./security-headers";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface FrontOptions {
  /** Next's development server: its tooling needs inline and eval'd scripts. */
  dev: boolean;
  trustedProxies: BlockList;
  /** The console's public URL is https (HSTS even when a proxy does not say so). */
  https: boolean;
}

const DEV_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join("; ");

function declaredLength(req: IncomingMessage): number | null {
  const raw = req.headers["content-length"];
  if (raw === undefined) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** Ends the connection once an answer is out: FIN now, and the socket gone a moment later. */
export function hangUp(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket || socket.destroyed) return;
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Requests are debug: at the default level the terminal keeps npm start's banner (with the
 * demo sign-in) in view. A server error stays an error, whatever the level, except a
 * readiness 503: while draining it is the drain working (every deploy would page someone),
 * otherwise the instance is not ready (database, migrations), a warning its probe repeats.
 */
export function requestLogLevel(pathname: string, status: number, draining: boolean): "debug" | "warn" | "error" {
  if (status < 500) return "debug";
  if (pathname === "/api/ready" && status === 503) return draining ? "debug" : "warn";
  return "error";
}

export function createFrontServer(handle: NodeHandler, options: FrontOptions): http.Server {
  const front = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    // After the front answered (a 413), a route still running may write; that is not a crash.
    res.on("error", (error) => log.debug({ err: error }, "write after the front answered"));
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    const started = performance.now();
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";

    const client = resolveClient(req, options.trustedProxies);
    let csp = DEV_CSP;
    if (!options.dev) {
      csp = contentSecurityPolicy(newNonce(), { dev: false });
      // Next.js takes the nonce for its own scripts from the request's policy.
      req.headers["content-security-policy"] = csp;
    } else delete req.headers["content-security-policy"];
    for (const [name, value] of Object.entries(securityHeaders({ csp, https: options.https || client.https })))
      res.setHeader(name, value);

    res.on("finish", () => {
      // Answered before its body was all in (a 401 before reading, say): hang up rather than
      // read and discard whatever the client still sends.
      if (!req.complete) hangUp(res);
      log[requestLogLevel(pathname, res.statusCode, isDraining())](
        {
          requestId,
          method: req.method,
          path: pathname,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          client: client.address,
        },
        "request",
      );
    });

    const limit: BodyLimit = bodyLimitFor(pathname);
    const declared = declaredLength(req);
    if (declared !== null && declared > limit.bytes) {
      writeTooLarge(res, limit, declared, requestId);
      return;
    }
    (req as BoundedIncomingMessage).bound(limit.bytes, () => {
      if (res.headersSent) res.destroy();
      else writeTooLarge(res, limit, `more than ${fmtBytes(limit.bytes)}`, requestId);
    });
    if (expectsContinue) res.writeContinue();

    handle(req, res).catch((error: unknown) => {
      if (res.writableEnded) return;
      log.error({ requestId, err: error }, "unhandled request error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          code: "INTERNAL",
          message: "Internal error. The server log has details under this request id.",
          requestId,
        }),
      );
    });
  };

  const server = http.createServer({ IncomingMessage: BoundedIncomingMessage }, (req, res) => front(req, res, false));
  // Expect: 100-continue (curl sends it for large bodies): refuse an oversized body before the client sends it.
  server.on("checkContinue", (req, res) => front(req, res, true));
  return server;
}
