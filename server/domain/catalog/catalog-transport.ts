/**
 * The client side of MCP's Streamable HTTP transport, as much of it as catalog checks and
 * pooled Tool Calls use: POST each message, read the answer as JSON or as a Server-Sent
 * Events stream, keep the session id and protocol version (2025 revisions), send the
 * per-request headers of 2026-07-28 (MCP-Protocol-Version, Mcp-Method, Mcp-Name), DELETE
 * the session at the end. The SDK's `Client` runs the protocol on top of it, including
 * version negotiation (server/discover with fallback to initialize).
 *
 * Why not the SDK's StreamableHTTPClientTransport: a check makes up to 128 requests
 * back to back, and that transport's per-request costs (WHATWG fetch objects, web
 * streams, a schema parse of every message) made listing a catalog take ~1.5× as long as
 * this does (docs/decisions/0007-catalog-transport.md). What a check does not need is
 * left out: OAuth, resumable streams, the standalone GET stream for server-initiated
 * messages.
 */
import { setMaxListeners } from "node:events";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type StandardSchemaV1,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import { type Dispatcher, request } from "undici";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { SpanKind, traceHeaders, withSpan } from "../../observability/tracing";

/** The probe went unanswered for SOURCE_PROBE_MS. */
class ProbeTimeout extends Error {
  override readonly name = "ProbeTimeout";
}

type ProbeMessage = { id: string | number; method: string; params?: Record<string, unknown> };

/** An answer that is JSON but not a JSON-RPC message. */
export class NotJsonRpc extends Error {
  override readonly name = "NotJsonRpc";
}

/** One answer's body passed the limit (counted after decompression: a small gzip can inflate without bound). */
export class ResponseTooLarge extends Error {
  override readonly name = "ResponseTooLarge";
  constructor(
    readonly received: number,
    readonly limit: number,
  ) {
    super(`response passed ${limit} bytes`);
  }
}

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const MAX_REDIRECTS = 5;

/** A non-2xx answer, shaped as the SDK's own transport reports it (version negotiation reads `data.status`/`data.text`). */
export function httpError(status: number, message: string, text?: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status, statusText: "", text });
}

/** An answer that is not an MCP response at all (content type, encoding, redirect). */
export function unusableAnswer(message: string): SdkError {
  return new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, message);
}

/** A result schema that takes the result as it is (no copy): its limits are ours to check. */
export const AS_SENT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "quartermaster",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

// Which request parameter the 2026-07-28 Mcp-Name header mirrors, per method.
const MCP_NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // The tasks extension: so intermediaries route every request for a task to where it lives.
  "tasks/get": "taskId",
  "tasks/cancel": "taskId",
};

/** Header-safe as sent, or base64 in the spec's sentinel form (non-ASCII, edge whitespace). */
function headerValue(value: string): string {
  const plain =
    value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !value.startsWith("=?base64?");
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

export class CatalogTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  sessionId?: string;
  /** One POST per request: a 2026-07-28 client cancels a request by aborting its POST. */
  readonly hasPerRequestStream = true;
  private protocolVersion?: string;
  private readonly controller = new AbortController();
  private closed = false;
  /** POSTs in flight by JSON-RPC id, so a 2025-era notifications/cancelled can end its POST too. */
  private readonly inFlight = new Map<string | number, AbortController>();
  /** Requests whose results are handed over raw (tools/list, tools/call), by id. */
  private readonly rawMethods = new Map<string | number, string>();
  private readonly rawResults = new WeakMap<object, Record<string, unknown>>();

  constructor(
    private readonly url: URL,
    private readonly options: {
      headers: Record<string, string>;
      dispatcher: Dispatcher;
      signal: AbortSignal;
      /** Most bytes one answer may have, decoded. */
      responseBytes: number;
    },
  ) {
    // Each request in flight listens on it: a pooled session carries many at once.
    setMaxListeners(0, this.controller.signal);
    if (options.signal.aborted) this.controller.abort(options.signal.reason);
    else options.signal.addEventListener("abort", () => this.controller.abort(options.signal.reason), { once: true });
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** The revision this connection speaks: set by initialize (2025) or read from the request envelope (2026). */
  get negotiatedVersion(): string | undefined {
    return this.protocolVersion;
  }

  /** Whether the POST for request `id` is still open (tests and the pool's bookkeeping). */
  get openRequests(): number {
    return this.inFlight.size;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, ...extra };
    if (this.sessionId) headers["mcp-session-id"] = this.sessionId;
    if (this.protocolVersion) headers["mcp-protocol-version"] = this.protocolVersion;
    return headers;
  }

  /**
   * One HTTP exchange with the Source, as a span (when tracing is on) whose context the
   * Source receives as W3C trace context (traceparent), so its own spans join the trace.
   */
  private call(
    method: "POST" | "DELETE",
    headers: Record<string, string>,
    body?: string,
    signal: AbortSignal = this.controller.signal,
    rpcMethod?: string,
  ) {
    return withSpan(
      "mcp.source.request",
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": method,
          "server.address": this.url.host,
          ...(rpcMethod ? { "mcp.method.name": rpcMethod.slice(0, 100) } : {}),
        },
      },
      async (span) => {
        const response = await this.exchange(method, { ...headers, ...traceHeaders() }, body, signal);
        span.set({ "http.response.status_code": response.statusCode });
        if (response.statusCode >= 500) span.fail(`HTTP ${response.statusCode}`);
        return response;
      },
    );
  }

  /** Sends with redirects followed only within the server's own origin, as the SDK does. */
  private async exchange(
    method: "POST" | "DELETE",
    headers: Record<string, string>,
    body?: string,
    signal: AbortSignal = this.controller.signal,
  ) {
    let url = this.url;
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.options.dispatcher,
        signal,
      });
      const location = response.headers.location;
      if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== "string") return response;
      await response.body.dump();
      const target = new URL(location, url);
      if (target.origin !== this.url.origin || hop >= MAX_REDIRECTS || ![307, 308].includes(response.statusCode))
        throw httpError(response.statusCode, `Redirected to ${target.origin}, which was not followed`);
      url = target;
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: string; params?: Record<string, unknown> };
    const isRequest = typeof m.method === "string" && m.id !== undefined;
    if (m.method === "notifications/cancelled") {
      const id = (m.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.inFlight.get(id)?.abort(new Error("cancelled"));
    }
    // Each request's POST ends with the transport, with the SDK's per-request signal, or
    // when the request is cancelled: a pooled connection outlives any one call.
    const perRequest = new AbortController();
    const abort = () => perRequest.abort();
    if (this.controller.signal.aborted) perRequest.abort();
    this.controller.signal.addEventListener("abort", abort, { once: true });
    options?.requestSignal?.addEventListener("abort", abort, { once: true });
    if (isRequest) this.inFlight.set(m.id as string | number, perRequest);
    if (isRequest && (m.method === "tools/list" || m.method === "tools/call"))
      this.rawMethods.set(m.id as string | number, m.method as string);
    if (isRequest && m.method === "server/discover") {
      try {
        return await this.probe(m as ProbeMessage, perRequest);
      } finally {
        this.inFlight.delete(m.id as string | number);
        this.controller.signal.removeEventListener("abort", abort);
        options?.requestSignal?.removeEventListener("abort", abort);
      }
    }
    try {
      const headers = this.headers({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "accept-encoding": "gzip, deflate, br",
      });
      const modern = this.applyEnvelopeHeaders(headers, m);
      for (const [name, value] of Object.entries(options?.headers ?? {})) {
        if (!(name.toLowerCase() in headers)) headers[name.toLowerCase()] = value;
      }
      const response = await this.call("POST", headers, JSON.stringify(message), perRequest.signal, m.method);
      const sessionId = response.headers["mcp-session-id"];
      if (typeof sessionId === "string") this.sessionId = sessionId;
      if (response.statusCode < 200 || response.statusCode >= 300) {
        let text = "";
        try {
          text = await this.readAll(response);
        } catch (error) {
          if (error instanceof ResponseTooLarge) throw error;
        }
        // 2026-07-28 servers refuse a request (unsupported revision, header mismatch) with
        // HTTP 400 and a JSON-RPC error for it: that error is the answer.
        if (modern && response.statusCode === 400 && this.deliverErrorFor(m.id, text)) return;
        throw httpError(response.statusCode, `Error POSTing to endpoint: ${text.slice(0, 300)}`, text.slice(0, 4000));
      }
      if (response.statusCode === 202 || !isRequest) {
        await response.body.dump();
        return;
      }
      const type = String(response.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase();
      if (type === "application/json") {
        const data = JSON.parse(await this.readAll(response)) as unknown;
        for (const item of Array.isArray(data) ? data : [data]) this.deliver(item);
      } else if (type === "text/event-stream") {
        // Read to the end before this send settles: the answer may follow notifications,
        // and a stream that fails or ends unanswered must fail its request, not leave it
        // waiting for the clock (the SDK does not wait on send, so other requests go on).
        const answered = await this.readEvents(response);
        if (!answered) throw new NotJsonRpc("The server ended its event stream without answering.");
      } else {
        await response.body.dump();
        throw unusableAnswer(`Unexpected content type: ${type || "none"}`);
      }
    } catch (error) {
      if (!perRequest.signal.aborted || this.controller.signal.aborted) this.onerror?.(error as Error);
      throw error;
    } finally {
      if (isRequest) {
        this.inFlight.delete(m.id as string | number);
        this.rawMethods.delete(m.id as string | number);
      }
      this.controller.signal.removeEventListener("abort", abort);
      options?.requestSignal?.removeEventListener("abort", abort);
    }
  }

  /**
   * The version-negotiation probe (`server/discover`). Only a 2026-07-28 answer counts:
   * anything else a server can answer — an HTTP error (a 2025 server's session check may
   * throw and answer 500), HTML, an empty or non-JSON-RPC body, an event stream that ends
   * unanswered, or no answer within SOURCE_PROBE_MS — is handed to the client as "method
   * not found", which makes it fall back to initialize. Only a failure to reach the server
   * at all stays an error (initialize could not do better). Nothing of the answer is kept:
   * a session id a 2025 server hands out here would only confuse the initialize after it.
   */
  private async probe(m: ProbeMessage, perRequest: AbortController): Promise<void> {
    const timer = setTimeout(() => perRequest.abort(new ProbeTimeout()), LIMITS.SOURCE_PROBE_MS.value);
    let answered = false;
    const fallBack = (why: string) => {
      if (answered) return;
      answered = true;
      log.debug(
        { url: this.url.origin, why },
        "Source answered server/discover as no 2026-07-28 server; falling back to initialize",
      );
      this.onmessage?.({
        jsonrpc: "2.0",
        id: m.id,
        error: { code: -32601, message: `server/discover: ${why}` },
      } as JSONRPCMessage);
    };
    // Answers to the probe's id only; a stray message or notification is dropped here.
    const take = (item: unknown) => {
      const r = item as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown } | null;
      if (answered || r?.jsonrpc !== "2.0" || r.id !== m.id || !(r.result || r.error)) return;
      if (r.result !== undefined && (typeof r.result !== "object" || r.result === null)) return;
      answered = true;
      this.onmessage?.(r as JSONRPCMessage);
    };
    try {
      const headers = this.headers({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "accept-encoding": "gzip, deflate, br",
      });
      this.applyEnvelopeHeaders(headers, m);
      const response = await this.call("POST", headers, JSON.stringify(m), perRequest.signal, m.method);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const text = await this.readAll(response).catch(() => "");
        // A 2026-07-28 server refuses with HTTP 400 and a JSON-RPC error (e.g. -32022 with the
        // revisions it speaks): the client reads that one itself.
        try {
          take(JSON.parse(text));
        } catch {}
        return fallBack(`HTTP ${response.statusCode}`);
      }
      const type = String(response.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase();
      if (type === "application/json") {
        const text = await this.readAll(response);
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch {
          return fallBack(text.trim() ? "the answer is not JSON" : "an empty answer");
        }
        for (const item of Array.isArray(data) ? data : [data]) take(item);
        return fallBack("no JSON-RPC answer to it");
      }
      if (type === "text/event-stream") {
        await this.readEvents(response, take);
        return fallBack("the event stream ended without an answer");
      }
      await response.body.dump();
      fallBack(`an answer of type ${type || "none"}`);
    } catch (error) {
      if (perRequest.signal.reason instanceof ProbeTimeout)
        return fallBack(`no answer within ${LIMITS.SOURCE_PROBE_MS.value / 1000} s`);
      if (perRequest.signal.aborted) throw error;
      if (error instanceof ResponseTooLarge || error instanceof SyntaxError || error instanceof NotJsonRpc)
        return fallBack(error.message);
      if (error instanceof SdkError) return fallBack(error.message);
      // Not reached at all (refused, reset, a blocked address): initialize would fail alike.
      this.onerror?.(error as Error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * 2026-07-28 requests carry their revision in `_meta`; the same revision, the method and
   * (for calls) the name go in headers a server checks against the body. Says whether the
   * message is such a request.
   */
  private applyEnvelopeHeaders(
    headers: Record<string, string>,
    m: { id?: unknown; method?: string; params?: Record<string, unknown> },
  ): boolean {
    if (typeof m.method !== "string" || m.id === undefined) return false;
    const version = (m.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
    if (typeof version !== "string") return false;
    headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = m.method;
    const field = MCP_NAME_SOURCE[m.method];
    const name = field ? m.params?.[field] : undefined;
    if (typeof name === "string") headers["mcp-name"] = headerValue(name);
    return true;
  }

  /** Delivers a JSON-RPC error body answering request `id`; false when the body is not one. */
  private deliverErrorFor(id: unknown, text: string): boolean {
    try {
      const parsed = JSON.parse(text) as { jsonrpc?: unknown; id?: unknown; error?: unknown };
      if (parsed?.jsonrpc !== "2.0" || parsed.id !== id || typeof parsed.error !== "object") return false;
      this.onmessage?.(parsed as JSONRPCMessage);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * What the SDK gets in place of a tools/list or tools/call result: the result with an empty
   * list of Tools or content blocks, which rawResult() maps back to what the server sent. A 2026-07-28 client validates these results strictly, so one Tool
   * a model cannot take would fail a whole page, and an oversized or malformed Tool Result
   * would fail as the SDK's error instead of ours; Quartermaster judges each itself
   * (validateToolDefinition, acceptToolResult), and the SDK's schema work is skipped.
   */
  private standIn(method: string, result: Record<string, unknown>): Record<string, unknown> {
    const list: unknown[] = [];
    this.rawResults.set(list, result);
    // Every other field as sent: a 2026-07-28 result also carries cache hints its schema requires.
    if (method === "tools/list") return { ...result, tools: list };
    // A task (the 2026-07-28 tasks extension's CreateTaskResult), which the SDK's client
    // refuses as a result type it does not know: handed over raw like any call's result,
    // read by remote-task.ts (decision 0100).
    if (result.resultType === "task") return { resultType: "complete", content: list };
    return { ...result, content: list };
  }

  /** The result the server sent, for a stand-in's list (`result.tools` or `result.content`). */
  rawResult(list: unknown): Record<string, unknown> | undefined {
    return list && typeof list === "object" ? this.rawResults.get(list) : undefined;
  }

  /** Hands one message to the client; says whether it was an answer (not a notification). */
  private deliver(item: unknown): boolean {
    const m = item as Record<string, unknown> | null;
    const shaped =
      m !== null &&
      typeof m === "object" &&
      m.jsonrpc === "2.0" &&
      (typeof m.method === "string" || ("id" in m && ("result" in m || "error" in m)));
    if (!shaped) throw new NotJsonRpc(`Not a JSON-RPC 2.0 message: ${JSON.stringify(item)?.slice(0, 200)}`);
    const method = "id" in m ? this.rawMethods.get(m.id as string | number) : undefined;
    if (method && m.result && typeof m.result === "object" && !Array.isArray(m.result)) {
      this.onmessage?.({ ...m, result: this.standIn(method, m.result as Record<string, unknown>) } as JSONRPCMessage);
      return true;
    }
    this.onmessage?.(m as JSONRPCMessage);
    return "id" in m && typeof m.method !== "string";
  }

  /** The body, decompressed and counted against the limit as it arrives. */
  private async *decodedChunks(response: Awaited<ReturnType<typeof request>>): AsyncGenerator<Buffer> {
    const encoding = String(response.headers["content-encoding"] ?? "identity")
      .trim()
      .toLowerCase();
    const decoder = DECODERS[encoding];
    if (!decoder && encoding !== "identity") {
      response.body.destroy();
      throw unusableAnswer(`Unsupported content encoding: ${encoding.slice(0, 40)}`);
    }
    const body: Readable = decoder
      ? (pipeline(response.body, decoder(), () => {}) as unknown as Readable)
      : response.body;
    const limit = this.options.responseBytes;
    let received = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        received += chunk.byteLength;
        if (received > limit) throw new ResponseTooLarge(received, limit);
        yield chunk;
      }
    } finally {
      response.body.destroy();
      body.destroy();
    }
  }

  private async readAll(response: Awaited<ReturnType<typeof request>>): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.decodedChunks(response)) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }

  /** Server-Sent Events: `data:` lines up to a blank line make one message. Resolves to whether an answer came. */
  private async readEvents(
    response: Awaited<ReturnType<typeof request>>,
    deliver: (item: unknown) => unknown = (item) => this.deliver(item),
  ) {
    const utf8 = new TextDecoder();
    let answered = false;
    const dispatch = (event: string) => {
      let data: string | undefined;
      let type = "message";
      for (const line of event.split("\n")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
        if (field === "data") data = data === undefined ? value : `${data}\n${value}`;
        else if (field === "event") type = value;
      }
      if (data && type === "message" && deliver(JSON.parse(data))) answered = true;
    };
    // Text since the last event boundary, in pieces: joined only once a piece brings a
    // boundary, so a large event arriving in many chunks is copied once, not once per chunk.
    let pieces: string[] = [];
    let endsWithNewline = false;
    let carry = ""; // a trailing \r may be half of a \r\n still on its way
    const consume = (piece: string) => {
      const boundary = piece.includes("\n\n") || (endsWithNewline && piece.startsWith("\n"));
      pieces.push(piece);
      if (piece) endsWithNewline = piece.endsWith("\n");
      if (!boundary) return;
      const events = pieces.join("").split("\n\n");
      const rest = events.pop() ?? "";
      for (const event of events) dispatch(event);
      pieces = [rest];
      endsWithNewline = rest.endsWith("\n");
    };
    for await (const chunk of this.decodedChunks(response)) {
      let text = carry + utf8.decode(chunk, { stream: true });
      carry = text.endsWith("\r") ? "\r" : "";
      if (carry) text = text.slice(0, -1);
      consume(text.replace(/\r\n?/g, "\n"));
    }
    consume(carry ? "\n" : "");
    const rest = pieces.join("");
    if (rest.trim()) dispatch(rest);
    return answered;
  }

  /** Ends the session on the server; a server that keeps none (405) is fine too. */
  async terminateSession(): Promise<void> {
    if (!this.sessionId) return;
    const response = await this.call("DELETE", this.headers({}));
    await response.body.dump();
    this.sessionId = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.controller.abort();
    this.onclose?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
