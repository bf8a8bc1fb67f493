/**
 * Every request body is bounded before any route reads it: a declared Content-Length over
 * the route's limit is answered 413 without reading a byte of the body, and a chunked
 * body is counted as it arrives and cut off the moment it passes the limit. Routes that
 * check their own contract limit (the SDK Tool Host API) still do; this is the floor under
 * all of them, libraries included (better-auth, tRPC), which would otherwise buffer
 * whatever they are sent.
 */

import { IncomingMessage, type ServerResponse } from "node:http";
import { fmtBytes } from "@/universal/format";
import { DomainError, jsonRpcErrorBody } from "../errors";
import { LIMITS, type LimitName } from "../limits";
import { problemBody } from "./problem";

/** Route prefixes and their limits, most specific first; any other path gets OTHER_REQUEST_BODY_BYTES. */
const ROUTES: ReadonlyArray<readonly [prefix: string, limit: LimitName, what: string]> = [
  ["/api/v1/tool-hosts/registration", "SDK_REGISTRATION_BODY_BYTES", "an SDK Tool Host registration"],
  ["/api/v1/tool-hosts/calls/results", "SDK_RESULT_SUBMISSION_BYTES", "an SDK Tool Result submission"],
  ["/api/v1/tool-hosts/", "TOOL_HOST_REQUEST_BODY_BYTES", "a request to the SDK Tool Host API"],
  ["/api/auth/", "AUTH_REQUEST_BODY_BYTES", "a request to /api/auth"],
  ["/api/trpc/", "TRPC_REQUEST_BODY_BYTES", "a request to /api/trpc"],
  ["/api/v1/scopes/import", "SCOPE_IMPORT_BYTES", "a scope import"],
  ["/mcp", "MCP_REQUEST_BODY_BYTES", "a request to /mcp"],
];

export interface BodyLimit {
  name: LimitName;
  bytes: number;
  what: string;
  /** /mcp answers in JSON-RPC, so an agent's client can read the refusal. */
  jsonRpc: boolean;
}

export function bodyLimitFor(pathname: string): BodyLimit {
  for (const [prefix, name, what] of ROUTES) {
    const matches = prefix.endsWith("/")
      ? pathname.startsWith(prefix)
      : pathname === prefix || pathname.startsWith(`${prefix}/`);
    if (matches) return { name, bytes: LIMITS[name].value, what, jsonRpc: prefix === "/mcp" };
  }
  return {
    name: "OTHER_REQUEST_BODY_BYTES",
    bytes: LIMITS.OTHER_REQUEST_BODY_BYTES.value,
    what: "a request to this path",
    jsonRpc: false,
  };
}

/**
 * The server's request class: counts body bytes as the HTTP parser hands them over and,
 * once a bound is passed, drops the rest and reports it (once). Node lets a server supply
 * its own IncomingMessage; every reader of the body, Next.js's included, reads through it.
 */
export class BoundedIncomingMessage extends IncomingMessage {
  private bodyLimit = Number.POSITIVE_INFINITY;
  private received = 0;
  private overflowed = false;
  private onOverflow?: (received: number) => void;
  private onDiscarded?: (bytes: number) => void;
  private onDiscardedAll?: () => void;
  private discarded = 0;

  bound(limit: number, onOverflow: (received: number) => void): void {
    this.bodyLimit = limit;
    this.onOverflow = onOverflow;
  }

  /**
   * Answered already: from now on the rest of the body is read as it arrives and dropped at
   * once (no reader sees it, nor its end), so the client can finish sending and read the
   * answer, and memory holds no more than one chunk of it.
   */
  discardRest(onDiscarded: (bytes: number) => void, onEnd: () => void): void {
    this.onDiscarded = onDiscarded;
    this.onDiscardedAll = onEnd;
    if (this.complete) onEnd();
    this.resume();
    // Past the bound the parser was stopped, and this stream, never handed a chunk since,
    // asks it for no more: start the socket reading again directly.
    this.socket?.resume();
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (this.onDiscarded) {
      if (chunk !== null && chunk !== undefined) {
        this.discarded += (chunk as { length: number }).length;
        this.onDiscarded(this.discarded);
      } else this.onDiscardedAll?.();
      return true; // keep the parser reading
    }
    // Past the bound nothing more is handed on, not even the end: a reader must not take
    // the part it got for the whole body. Once the 413 is out the rest is discarded.
    if (this.overflowed) return false;
    if (chunk !== null && chunk !== undefined) {
      this.received += (chunk as { length: number }).length;
      if (this.received > this.bodyLimit) {
        this.overflowed = true;
        this.onOverflow?.(this.received);
        return false;
      }
    }
    return super.push(chunk, encoding);
  }
}

/** A body over its bound, in the one wording every route uses; `setting` names the limit when it is a release setting. */
export function bodyTooLarge(
  what: string,
  limit: number,
  measured: number | string,
  setting?: LimitName,
): DomainError<"REQUEST_BODY_TOO_LARGE"> {
  const size = typeof measured === "number" ? fmtBytes(measured) : measured;
  return new DomainError(
    "REQUEST_BODY_TOO_LARGE",
    `The request body is ${size}; ${what} may be at most ${fmtBytes(limit)}.`,
    {
      measured,
      limit,
      unit: "bytes",
      ...(setting ? { setting } : {}),
    },
  );
}

/** The 413 answer, in the route's own error shape. */
export function writeTooLarge(res: ServerResponse, limit: BodyLimit, measured: number | string, requestId: string) {
  const refusal = bodyTooLarge(limit.what, limit.bytes, measured, limit.name);
  const body = limit.jsonRpc
    ? jsonRpcErrorBody(refusal)
    : problemBody(refusal.code, refusal.message, refusal.details, requestId);
  // The client may still be sending: once the answer is out the front reads and drops the
  // rest (front.ts, dropRest), so the connection is not reset before the 413 is read.
  res.writeHead(413, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
