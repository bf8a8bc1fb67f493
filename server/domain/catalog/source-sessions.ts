/**
 * Pooled sessions with MCP Connections' servers, so a Tool Call costs one request to the
 * Source instead of a whole exchange (initialize, call, end of session; behind a stdio
 * bridge, a fresh server process each time). Per Source, per instance:
 *
 * - up to SOURCE_SESSIONS connected clients, shared by every Agent Identity (a Source sees
 *   the Connection's headers, never the agent's); calls run concurrently on a session, and
 *   another session opens when each has SOURCE_SESSION_CALLS in flight;
 * - a session unused for SOURCE_SESSION_IDLE_MS is closed; all of a Source's sessions close
 *   when it is edited, paused or deleted (closeSourceSessions), and a session whose
 *   address, headers or network policy no longer match is never reused (the pool key);
 * - a session the Source no longer knows (HTTP 404: it restarted or expired the session)
 *   is replaced and the call sent again, once: the server never ran it;
 * - the revision a Source speaks is remembered (in memory, and in the Source's row by the
 *   caller), so a new session connects without probing (docs/decisions/0013).
 *
 * Sessions are an optimization, not state: any instance opens its own, and losing one
 * costs a reconnect, never a call.
 */
import { setMaxListeners } from "node:events";
import { isIP } from "node:net";
import {
  type Client,
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import type { Agent } from "undici";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { blockedAddressReason } from "../sources/url-policy";
import { CatalogTransport } from "./catalog-transport";
import { AddressBlocked, causeChain, guardedDispatcher } from "./guarded-dispatcher";
import { isModernRevision } from "./protocol-revision";
import { connectionKey, forgetVerdict, rememberVerdict, verdictFor } from "./protocol-verdicts";
import { newSourceClient } from "./source-exchange";

export interface SourceTarget {
  sourceId: string;
  url: string;
  headers: Record<string, string>;
  allowLinkLocal: boolean;
  /** The revision last recorded for the Source, if any: a 2025 one skips the probe. */
  protocolVersion?: string | null;
  responseBytes: number;
}

interface Session {
  client: Client;
  transport: CatalogTransport;
  ready: Promise<void>;
  active: number;
  lastUsed: number;
  dead: boolean;
}

interface Pool {
  key: string;
  sessions: Session[];
  dispatcher: Agent;
  /** Closes every transport of the pool at once. */
  controller: AbortController;
}

const pools = new Map<string, Pool>();
let sweeper: NodeJS.Timeout | undefined;

/** Counters for tests and the bench: sessions opened since start, by Source. */
export const sessionStats = { opened: new Map<string, number>() };

/**
 * Keys already hashed, by the headers' object: opened headers are one frozen object per
 * sealed text (sources/headers.ts), so a call finds its key without hashing them again.
 * Headers not frozen (a test's, say) could change under the same object: hashed each time.
 */
const keysByHeaders = new WeakMap<object, Map<string, string>>();

function poolKey(target: SourceTarget): string {
  const parts = [target.url, target.headers, target.allowLinkLocal, target.responseBytes];
  if (!Object.isFrozen(target.headers)) return connectionKey(parts);
  let keys = keysByHeaders.get(target.headers);
  if (!keys) {
    keys = new Map();
    keysByHeaders.set(target.headers, keys);
  }
  const by = `${target.url}\0${target.allowLinkLocal}\0${target.responseBytes}`;
  let key = keys.get(by);
  if (!key) {
    if (keys.size >= 100) keys.clear();
    key = connectionKey(parts);
    keys.set(by, key);
  }
  return key;
}

/**
 * Runs `fn` on a connected session with the Source. `onVersion` hears the revision when a
 * new session negotiates one that differs from `target.protocolVersion`.
 */
export async function withSourceSession<T>(
  target: SourceTarget,
  fn: (client: Client, transport: CatalogTransport) => Promise<T>,
  options: { timeoutMs: number; onVersion?: (version: string) => void },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const session = acquire(target, options);
    try {
      await session.ready;
      return await fn(session.client, session.transport);
    } catch (error) {
      const stale = isStaleSession(error, session);
      if (stale || brokeSession(error)) discard(target.sourceId, session);
      if (stale === "revision") forgetVerdict(target.sourceId);
      if (stale && attempt === 0) continue;
      throw error;
    } finally {
      session.active--;
      session.lastUsed = Date.now();
    }
  }
}

function acquire(target: SourceTarget, options: { timeoutMs: number; onVersion?: (version: string) => void }) {
  const key = poolKey(target);
  let pool = pools.get(target.sourceId);
  if (pool && pool.key !== key) {
    closePool(pool);
    pool = undefined;
  }
  if (!pool) {
    checkLiteralAddress(target);
    pool = {
      key,
      sessions: [],
      dispatcher: guardedDispatcher(target.allowLinkLocal),
      controller: new AbortController(),
    };
    // Every session's transport listens on it.
    setMaxListeners(0, pool.controller.signal);
    pools.set(target.sourceId, pool);
    startSweeper();
  }
  let best: Session | undefined;
  for (const s of pool.sessions) if (!s.dead && (!best || s.active < best.active)) best = s;
  if (
    !best ||
    (best.active >= LIMITS.SOURCE_SESSION_CALLS.value && pool.sessions.length < LIMITS.SOURCE_SESSIONS.value)
  )
    best = open(target, pool, key, options);
  best.active++;
  best.lastUsed = Date.now();
  return best;
}

/** An IP-literal address is checked before anything connects: the dispatcher's resolver never sees one. */
function checkLiteralAddress(target: SourceTarget) {
  const host = new URL(target.url).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !target.allowLinkLocal) {
    const reason = blockedAddressReason(host);
    if (reason) throw new AddressBlocked(host, reason);
  }
}

function open(
  target: SourceTarget,
  pool: Pool,
  key: string,
  options: { timeoutMs: number; onVersion?: (version: string) => void },
): Session {
  const transport = new CatalogTransport(new URL(target.url), {
    headers: target.headers,
    dispatcher: pool.dispatcher,
    signal: pool.controller.signal,
    responseBytes: target.responseBytes,
  });
  const client = newSourceClient("quartermaster");
  const session: Session = {
    client,
    transport,
    ready: Promise.resolve(),
    active: 0,
    lastUsed: Date.now(),
    dead: false,
  };
  // A failure outside any request (e.g. a stray message) is not the call's: log it only.
  client.onerror = (error) => log.debug({ err: error, sourceId: target.sourceId }, "pooled Source session error");
  const remembered = verdictFor(target.sourceId, key);
  const prior: PriorDiscovery | undefined =
    remembered ??
    (target.protocolVersion && !isModernRevision(target.protocolVersion) ? { kind: "legacy" } : undefined);
  session.ready = client.connect(transport, { prior, timeout: options.timeoutMs }).then(() => {
    const discover = client.getDiscoverResult();
    rememberVerdict(target.sourceId, key, discover ? { kind: "modern", discover } : { kind: "legacy" });
    const version = client.getNegotiatedProtocolVersion();
    if (version && version !== target.protocolVersion) options.onVersion?.(version);
  });
  session.ready.catch(() => discard(target.sourceId, session));
  pool.sessions.push(session);
  sessionStats.opened.set(target.sourceId, (sessionStats.opened.get(target.sourceId) ?? 0) + 1);
  return session;
}

/**
 * "404 for this session": the server restarted or dropped it, and never ran the request —
 * safe to send again on a new session. A modern verdict refused as an unsupported revision
 * (the server was downgraded) is forgotten and renegotiated.
 */
function isStaleSession(error: unknown, session: Session): false | "session" | "revision" {
  for (const e of causeChain(error)) {
    if (e instanceof SdkHttpError && e.status === 404 && session.transport.sessionId) return "session";
    if (e instanceof ProtocolError && e.code === -32022) return "revision";
  }
  return false;
}

/** The connection itself failed (reset, refused, closed): later calls get a new session. */
function brokeSession(error: unknown): boolean {
  if (error instanceof ProtocolError) return false; // the Source answered
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return false;
  return true;
}

function discard(sourceId: string, session: Session) {
  if (session.dead) return;
  session.dead = true;
  const pool = pools.get(sourceId);
  if (pool) pool.sessions = pool.sessions.filter((s) => s !== session);
  void endSession(session);
}

async function endSession(session: Session) {
  // Waits for calls in flight; the session is already out of the pool.
  while (session.active > 0) await new Promise((r) => setTimeout(r, 50));
  await session.transport.terminateSession().catch(() => {});
  await session.client.close().catch(() => {});
}

function closePool(pool: Pool) {
  for (const s of pool.sessions) {
    s.dead = true;
    void (async () => {
      await s.transport.terminateSession().catch(() => {});
      await s.client.close().catch(() => {});
    })();
  }
  pool.sessions = [];
  // Calls in flight on it fail as a closed connection, which is what an edit, pause or delete means.
  setTimeout(() => {
    pool.controller.abort();
    void pool.dispatcher.close().catch(() => {});
  }, 1000).unref();
}

/** Closes a Source's sessions (it was edited, paused or deleted) and forgets its revision. */
export function closeSourceSessions(sourceId: string): void {
  const pool = pools.get(sourceId);
  pools.delete(sourceId);
  forgetVerdict(sourceId);
  if (pool) closePool(pool);
}

/** Closes every pooled session (tests, shutdown). */
export function closeAllSourceSessions(): void {
  for (const id of [...pools.keys()]) closeSourceSessions(id);
}

/** How many sessions are open with a Source on this instance. */
export function openSessionCount(sourceId: string): number {
  return pools.get(sourceId)?.sessions.filter((s) => !s.dead).length ?? 0;
}

function startSweeper() {
  if (sweeper) return;
  const every = Math.max(1000, Math.floor(LIMITS.SOURCE_SESSION_IDLE_MS.value / 4));
  sweeper = setInterval(sweepIdle, every);
  sweeper.unref();
}

export function sweepIdle(now = Date.now()) {
  const idle = LIMITS.SOURCE_SESSION_IDLE_MS.value;
  for (const [id, pool] of pools) {
    for (const s of pool.sessions) if (s.active === 0 && now - s.lastUsed >= idle) discard(id, s);
    if (!pool.sessions.length) {
      pools.delete(id);
      closePool(pool);
    }
  }
  if (!pools.size && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
