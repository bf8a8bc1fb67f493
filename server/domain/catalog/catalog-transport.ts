/**
 * The client side of MCP's Streamable HTTP transport, as much of it as a catalog check
 * uses: POST each message, read the answer as JSON or as a Server-Sent Events stream,
 * keep the session id and protocol version, DELETE the session at the end. The SDK's
 * `Client` runs the protocol on top of it.
 *
 * Why not the SDK's StreamableHTTPClientTransport: a check makes up to 128 requests
 * back to back, and that transport's per-request costs (WHATWG fetch objects, web
 * streams, a schema parse of every message) made listing a catalog take ~1.5× as long as
 * this does (docs/decisions/0007-catalog-transport.md). What a check does not need is
 * left out: OAuth, resumable streams, the standalone GET stream for server-initiated
 * messages.
 */
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type Dispatcher, request } from "undici";
import { SpanKind, traceHeaders, withSpan } from "../../observability/tracing";

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

export class CatalogTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  private protocolVersion?: string;
  private readonly controller = new AbortController();

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
    if (options.signal.aborted) this.controller.abort(options.signal.reason);
    else options.signal.addEventListener("abort", () => this.controller.abort(options.signal.reason), { once: true });
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
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
  private call(method: "POST" | "DELETE", headers: Record<string, string>, body?: string) {
    return withSpan(
      "mcp.source.request",
      { kind: SpanKind.CLIENT, attributes: { "http.request.method": method, "server.address": this.url.host } },
      () => this.exchange(method, { ...headers, ...traceHeaders() }, body),
    );
  }

  /** Sends with redirects followed only within the server's own origin, as the SDK does. */
  private async exchange(method: "POST" | "DELETE", headers: Record<string, string>, body?: string) {
    let url = this.url;
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.options.dispatcher,
        signal: this.controller.signal,
      });
      const location = response.headers.location;
      if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== "string") return response;
      await response.body.dump();
      const target = new URL(location, url);
      if (target.origin !== this.url.origin || hop >= MAX_REDIRECTS || ![307, 308].includes(response.statusCode))
        throw new StreamableHTTPError(response.statusCode, `Redirected to ${target.origin}, which was not followed`);
      url = target;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    try {
      const response = await this.call(
        "POST",
        this.headers({
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "accept-encoding": "gzip, deflate, br",
        }),
        JSON.stringify(message),
      );
      const sessionId = response.headers["mcp-session-id"];
      if (typeof sessionId === "string") this.sessionId = sessionId;
      if (response.statusCode < 200 || response.statusCode >= 300) {
        let text = "";
        try {
          text = await this.readAll(response);
        } catch (error) {
          if (error instanceof ResponseTooLarge) throw error;
        }
        throw new StreamableHTTPError(response.statusCode, `Error POSTing to endpoint: ${text.slice(0, 300)}`);
      }
      const isRequest = "method" in message && "id" in message && message.id !== undefined;
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
        // Not awaited: the answer may follow notifications, and the stream is read as it comes.
        this.readEvents(response).then(
          (answered) => {
            // Otherwise the request would wait for its answer until the check's clock ran out.
            if (!answered) this.onerror?.(new NotJsonRpc("The server ended its event stream without answering."));
          },
          (error) => this.onerror?.(error as Error),
        );
      } else {
        await response.body.dump();
        throw new StreamableHTTPError(-1, `Unexpected content type: ${type || "none"}`);
      }
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
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
      throw new StreamableHTTPError(-1, `Unsupported content encoding: ${encoding.slice(0, 40)}`);
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
  private async readEvents(response: Awaited<ReturnType<typeof request>>) {
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
      if (data && type === "message" && this.deliver(JSON.parse(data))) answered = true;
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
    this.controller.abort();
    this.onclose?.();
  }
}
