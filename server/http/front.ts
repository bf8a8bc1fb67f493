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
import { LIMITS } from "../limits";
import { log } from "../log";
import { type BodyLimit, BoundedIncomingMessage, bodyLimitFor, writeTooLarge } from "./body-limits";
import { resolveClient } from "./client-address";
import { problemBody } from "./problem";
import { REQUEST_PATH_HEADER } from "./request-path";
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

/**
 * After an answer that came before its body was all in (a 413, a 401): the rest of the body
 * is read and dropped as it arrives, so the connection ends as any other request does. A
 * client that sends its whole body before it reads (many do) would otherwise be reset by a
 * close with its bytes unread, and the reset throws away the answer it had not read yet;
 * a client's pool that reuses the connection finds it in step. Bounded: past
 * EARLY_ANSWER_DRAIN_BYTES, or as long without an end, the connection is dropped.
 */
export function dropRest(req: IncomingMessage): void {
  // The request's socket: the response has let go of it by the time it has finished.
  const socket = req.socket as IncomingMessage["socket"] & { server?: http.Server };
  if (!socket || socket.destroyed) return;
  // Node's keep-alive timer, or its close after a "Connection: close" answer, would destroy
  // the socket with the client's bytes still unread.
  socket.setTimeout(0);
  socket.removeListener("finish", socket.destroy);
  const giveUp = () => socket.destroy();
  const overall = setTimeout(giveUp, LIMITS.EARLY_ANSWER_DRAIN_MS.value).unref();
  const idle = setTimeout(giveUp, LIMITS.EARLY_ANSWER_DRAIN_IDLE_MS.value).unref();
  const stop = () => {
    clearTimeout(overall);
    clearTimeout(idle);
  };
  socket.once("close", stop);
  (req as BoundedIncomingMessage).discardRest(
    (bytes) => {
      if (bytes > LIMITS.EARLY_ANSWER_DRAIN_BYTES.value) giveUp();
      else idle.refresh();
    },
    () => {
      stop();
      // All in: closed if the answer said so (nothing unread now, so no reset), else an
      // idle connection again under the server's keep-alive timeout.
      if (socket.writableEnded) socket.destroy();
      else socket.setTimeout(socket.server?.keepAliveTimeout || 5000);
    },
  );
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
    // The console's layout cannot see the address it renders; sign-in brings the user back to it.
    req.headers[REQUEST_PATH_HEADER] = req.url ?? "/";

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
      // Answered before its body was all in (a 401 before reading, say): drop the rest.
      if (!req.complete) dropRest(req);
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
      if (res.writableFinished) return; // answered early and discarding the rest
      if (res.headersSent) res.destroy();
      else writeTooLarge(res, limit, `more than ${fmtBytes(limit.bytes)}`, requestId);
    });
    if (expectsContinue) res.writeContinue();

    handle(req, res).catch((error: unknown) => {
      if (res.writableEnded) return;
      log.error({ requestId, err: error }, "unhandled request error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          problemBody("INTERNAL", "Internal error. The server log has details under this request id.", {}, requestId),
        ),
      );
    });
  };

  const server = http.createServer({ IncomingMessage: BoundedIncomingMessage }, (req, res) => front(req, res, false));
  // Expect: 100-continue (curl sends it for large bodies): refuse an oversized body before the client sends it.
  server.on("checkContinue", (req, res) => front(req, res, true));
  return server;
}
