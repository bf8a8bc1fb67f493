/**
 * Real MCP servers on loopback for tests: one built with the SDK (to prove the product
 * interoperates with it), and a hand-written JSON-RPC server for answers a conforming
 * server would never give (malformed pages, HTTP errors, loops, stalls).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import {
  type CallToolResult,
  createMcpHandler,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";

export interface RunningServer {
  url: string;
  /** Requests received, for assertions (e.g. headers sent). */
  requests: { method: string; headers: http.IncomingHttpHeaders; rpcMethod?: string }[];
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/mcp` };
}

function closer(server: http.Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** A node:http request as a fetch Request (the SDK's servers take web-standard requests). */
export async function toFetchRequest(req: http.IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

/** Writes a fetch Response to a node:http response, streaming its body. */
export async function sendFetchResponse(res: http.ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      res.write(chunk);
    }
  }
  res.end();
}

export type ToolDef = { name: string; description?: string; inputSchema: unknown; [k: string]: unknown };

/**
 * An SDK server that serves `catalog()` in pages of `pageSize`. The catalog is re-read per
 * request and may depend on the request's path (one server, several catalogs). By default
 * it serves clients of every revision statelessly, as the SDK's handler does.
 */
export async function startSdkServer(options: {
  catalog: (path: string) => ToolDef[];
  pageSize?: number;
  requireHeader?: [string, string];
  /**
   * Answer as most deployed 2025-era servers do: Server-Sent Events, in a session the
   * server keeps (and a log notification before each page), instead of stateless JSON.
   */
  sessions?: boolean;
  /** Serve 2026-07-28 clients only (the SDK handler's strict mode): no initialize. */
  modernOnly?: boolean;
  /** Answers tools/call; the result is sent as it is, limits or not. */
  onCall?: (name: string, args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
}): Promise<RunningServer> {
  const pageSize = options.pageSize ?? 100;
  const requests: RunningServer["requests"] = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const newServer = (path: string) => {
    const mcp = new Server({ name: "test-sdk-server", version: "1.0.0" }, { capabilities: { tools: {}, logging: {} } });
    mcp.setRequestHandler("tools/list", async (request, ctx) => {
      if (options.sessions)
        await ctx.mcpReq.notify({ method: "notifications/message", params: { level: "info", data: "listing" } });
      const all = options.catalog(path);
      const start = request.params?.cursor ? Number(request.params.cursor) : 0;
      const page = all.slice(start, start + pageSize);
      const next = start + pageSize < all.length ? String(start + pageSize) : undefined;
      return { tools: page as never, ...(next ? { nextCursor: next } : {}) };
    });
    const onCall = options.onCall;
    if (onCall)
      mcp.setRequestHandler("tools/call", async (request) =>
        onCall(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
      );
    return mcp;
  };
  const handlers = new Map<string, ReturnType<typeof createMcpHandler>>();
  const handlerFor = (path: string) => {
    let h = handlers.get(path);
    if (!h) {
      h = createMcpHandler(() => newServer(path), {
        legacy: options.modernOnly ? "reject" : "stateless",
      });
      handlers.set(path, h);
    }
    return h;
  };
  const { server, url } = await listen(async (req, res) => {
    requests.push({ method: req.method ?? "", headers: req.headers });
    if (options.requireHeader && req.headers[options.requireHeader[0].toLowerCase()] !== options.requireHeader[1]) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const request = await toFetchRequest(req);
    if (options.sessions) {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
          onsessionclosed: (sessionId) => void sessions.delete(sessionId),
        });
        transport = created;
        await newServer(req.url ?? "/").connect(transport);
      }
      await sendFetchResponse(res, await transport.handleRequest(request));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    await sendFetchResponse(res, await handlerFor(req.url ?? "/").fetch(request));
  });
  return {
    url,
    requests,
    close: async () => {
      await Promise.all([...handlers.values()].map((h) => h.close()));
      await closer(server)();
    },
  };
}

export type RawAnswer =
  /** `sse`: as one Server-Sent Event (CRLF line ends, the message over two data lines) after a notification. */
  | { result: unknown; delayMs?: number; sse?: boolean; gzip?: boolean }
  /** Events as written, then the stream ends. */
  | { events: string }
  | { error: { code: number; message: string } }
  | { status: number; body: string; contentType?: string; delayMs?: number }
  | { hang: true };

/** A hand-written server: `onList` decides each tools/list answer. */
export async function startRawServer(
  onList: (call: { page: number; cursor: string | undefined }) => RawAnswer | Promise<RawAnswer>,
  /** Requests to `from` (a path) are answered with `status` and a Location of `to`. */
  redirect?: { from: string; to: string; status: number },
): Promise<RunningServer> {
  const requests: RunningServer["requests"] = [];
  // Pages count per listing: a request without a cursor starts a new one.
  let page = 0;
  const { server, url } = await listen(async (req, res) => {
    if (redirect && req.url === redirect.from) {
      res.writeHead(redirect.status, { location: redirect.to }).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const message = text
      ? (JSON.parse(text) as { id?: number; method: string; params?: { cursor?: string; protocolVersion?: string } })
      : null;
    requests.push({ method: req.method ?? "", headers: req.headers, rpcMethod: message?.method });
    if (req.method !== "POST" || !message) {
      res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      return;
    }
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === "initialize") {
      json({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "raw", version: "1" },
        },
      });
      return;
    }
    if (message.method !== "tools/list") {
      json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
      return;
    }
    page = message.params?.cursor === undefined ? 1 : page + 1;
    const answer = await onList({ page, cursor: message.params?.cursor });
    if ("hang" in answer) return; // never answers; the check's clock must end it
    if ("delayMs" in answer && answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if ("events" in answer) res.writeHead(200, { "content-type": "text/event-stream" }).end(answer.events);
    else if ("result" in answer && answer.sse) {
      const text = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer.result });
      const split = text.indexOf(',"') + 1;
      const note = JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: 1 },
      });
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      res.write(`: keep-alive\r\n\r\nevent: message\r\ndata: ${note}\r\n\r\nid: ${page}\r\n`);
      res.end(`data: ${text.slice(0, split)}\r\ndata:${text.slice(split)}\r\n\r\n`);
    } else if ("result" in answer && answer.gzip) {
      const body = gzipSync(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer.result }));
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(body);
    } else if ("result" in answer) json({ jsonrpc: "2.0", id: message.id, result: answer.result });
    else if ("error" in answer) json({ jsonrpc: "2.0", id: message.id, error: answer.error });
    else res.writeHead(answer.status, { "content-type": answer.contentType ?? "application/json" }).end(answer.body);
  });
  return { url, requests, close: closer(server) };
}

/** Serves `tools` in pages of `pageSize` through a raw server. */
export function paged(tools: unknown[], pageSize: number) {
  return ({ cursor }: { cursor?: string }): RawAnswer => {
    const start = cursor ? Number(cursor) : 0;
    const next = start + pageSize < tools.length ? String(start + pageSize) : undefined;
    return { result: { tools: tools.slice(start, start + pageSize), ...(next ? { nextCursor: next } : {}) } };
  };
}

export function simpleTool(name: string, extra: Partial<ToolDef> = {}): ToolDef {
  return {
    name,
    description: `Does ${name}.`,
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for" } },
      required: ["query"],
    },
    ...extra,
  };
}
