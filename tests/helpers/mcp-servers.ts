/**
 * Real MCP servers on loopback for tests: one built with the SDK (to prove the product
 * interoperates with it), and a hand-written JSON-RPC server for answers a conforming
 * server would never give (malformed pages, HTTP errors, loops, stalls).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { gzipSync } from "node:zlib";
import {
  type CallToolResult,
  createMcpHandler,
  ProtocolError,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { closeWithConnections, listenOnLoopback } from "./loopback";

export interface RunningServer {
  url: string;
  /** Requests received, for assertions (e.g. headers sent). */
  requests: { method: string; headers: http.IncomingHttpHeaders; rpcMethod?: string }[];
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const { server, origin } = await listenOnLoopback(handler);
  return { server, url: `${origin}/mcp` };
}

const closer = closeWithConnections;

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

export interface LegacyServer extends RunningServer {
  /** initialize requests answered (one per session opened). */
  initializes(): number;
  /** Forgets every session, as a server that expires them does: their next request gets 404. */
  forgetSessions(): void;
  /** Stops listening and listens again on the same port with no sessions, as a restarted process. */
  restart(): Promise<void>;
}

/**
 * A hand-written server that speaks only MCP 2025-06-18, with sessions, as many deployed
 * servers do: it answers initialize with its own revision whatever the client offers,
 * refuses requests without a known session (400 without one, 404 for an unknown one) and
 * a protocol-version header other than its own, and knows nothing of server/discover.
 */
export async function startLegacyServer(options: {
  tools: ToolDef[];
  /**
   * Answers the 2026-07-28 probe (server/discover) itself, as real 2025-era servers do in
   * their own ways (an HTTP 500 from a session check, HTML, an empty body, no answer).
   * Without it, the probe meets the session check: 400 and a JSON-RPC error.
   */
  onDiscover?: (res: http.ServerResponse, id: unknown) => void | Promise<void>;
  onCall: (
    name: string,
    args: Record<string, unknown>,
    res: http.ServerResponse,
  ) => CallToolResult | Promise<CallToolResult> | "no-answer";
}): Promise<LegacyServer> {
  const REVISION = "2025-06-18";
  const requests: RunningServer["requests"] = [];
  let sessions = new Set<string>();
  let initializes = 0;
  const handler: http.RequestListener = async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const message = text
      ? (JSON.parse(text) as { id?: number; method: string; params?: Record<string, unknown> })
      : null;
    requests.push({ method: req.method ?? "", headers: req.headers, rpcMethod: message?.method });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    const refuse = (status: number, code: number, text: string) =>
      json(status, { jsonrpc: "2.0", id: message?.id ?? null, error: { code, message: text } });
    const session = req.headers["mcp-session-id"];
    if (req.method === "DELETE") {
      if (typeof session === "string") sessions.delete(session);
      res.writeHead(200).end();
      return;
    }
    if (req.method !== "POST" || !message) return void res.writeHead(405).end();
    if (message.method === "server/discover" && options.onDiscover) return options.onDiscover(res, message.id);
    if (message.method === "initialize") {
      const id = randomUUID();
      sessions.add(id);
      initializes++;
      json(
        200,
        {
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: REVISION,
            capabilities: { tools: {} },
            serverInfo: { name: "legacy", version: "1" },
          },
        },
        { "mcp-session-id": id },
      );
      return;
    }
    if (typeof session !== "string") return refuse(400, -32000, "Bad Request: No valid session ID provided");
    if (!sessions.has(session)) return refuse(404, -32001, "Session not found");
    const version = req.headers["mcp-protocol-version"];
    if (version !== undefined && version !== REVISION)
      return refuse(400, -32000, `Bad Request: Unsupported protocol version ${version}`);
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === "tools/list")
      return json(200, { jsonrpc: "2.0", id: message.id, result: { tools: options.tools } });
    if (message.method === "tools/call") {
      const params = message.params as { name: string; arguments?: Record<string, unknown> };
      const result = await options.onCall(params.name, params.arguments ?? {}, res);
      if (result === "no-answer") return;
      return json(200, { jsonrpc: "2.0", id: message.id, result });
    }
    refuse(200, -32601, "Method not found");
  };
  let { server, url } = await listen(handler);
  const port = Number(new URL(url).port);
  return {
    url,
    requests,
    initializes: () => initializes,
    forgetSessions: () => {
      sessions = new Set();
    },
    restart: async () => {
      await closer(server)();
      sessions = new Set();
      server = http.createServer(handler);
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
    close: () => closer(server)(),
  };
}

export interface SurfaceServerOptions {
  /** Resources `file:///doc-<n>.txt`, `pageSize` a page (default 100). */
  resources?: number;
  pageSize?: number;
  templates?: { uriTemplate: string; name: string; description?: string; mimeType?: string }[];
  prompts?: {
    name: string;
    description?: string;
    arguments?: { name: string; description?: string; required?: boolean }[];
  }[];
  /** Answer prompts/list with this JSON-RPC error instead. */
  promptsListError?: { code: number; message: string };
  /** What prompts/get answers: the Source's label and the prompt, so a test sees who answered. */
  label?: string;
}

/**
 * An SDK server with resources, resource templates and prompts beside one Tool (`lookup`),
 * advertising the resources and prompts capabilities.
 */
export async function startSurfaceServer(options: SurfaceServerOptions): Promise<RunningServer> {
  const count = options.resources ?? 0;
  const pageSize = options.pageSize ?? 100;
  const label = options.label ?? "surface";
  const newServer = () => {
    const mcp = new Server(
      { name: `surface-${label}`, version: "1" },
      { capabilities: { tools: {}, resources: {}, prompts: {} } },
    );
    mcp.setRequestHandler("tools/list", async () => ({ tools: [simpleTool("lookup") as never] }));
    mcp.setRequestHandler("resources/list", async (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const end = Math.min(start + pageSize, count);
      const resources = Array.from({ length: end - start }, (_, i) => ({
        uri: `file:///doc-${start + i}.txt`,
        name: `doc-${start + i}`,
        description: `Document ${start + i}`,
        mimeType: "text/plain",
      }));
      return { resources, ...(end < count ? { nextCursor: String(end) } : {}) };
    });
    mcp.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: options.templates ?? [] }));
    mcp.setRequestHandler("resources/read", async (request) => ({
      contents: [{ uri: request.params.uri, mimeType: "text/plain", text: `${label} ${request.params.uri}` }],
    }));
    mcp.setRequestHandler("prompts/list", async () => {
      const error = options.promptsListError;
      if (error) throw new ProtocolError(error.code, error.message);
      return { prompts: options.prompts ?? [] };
    });
    mcp.setRequestHandler("prompts/get", async (request) => {
      if (!(options.prompts ?? []).some((p) => p.name === request.params.name))
        throw new ProtocolError(-32602, `Unknown prompt ${request.params.name}`);
      return {
        messages: [{ role: "user", content: { type: "text", text: `${label}:${request.params.name}` } }],
      };
    });
    return mcp;
  };
  return serveMcp(newServer);
}

/** Serves an SDK server (a new one per request, stateless) at /mcp on loopback: for a test whose server needs its own handlers. */
export async function serveMcp(newServer: () => Server): Promise<RunningServer> {
  const handler = createMcpHandler(newServer, { legacy: "stateless" });
  const requests: RunningServer["requests"] = [];
  const { server, url } = await listen(async (req, res) => {
    requests.push({ method: req.method ?? "", headers: req.headers });
    if (req.method !== "POST") return void res.writeHead(405).end();
    await sendFetchResponse(res, await handler.fetch(await toFetchRequest(req)));
  });
  return {
    url,
    requests,
    close: async () => {
      await handler.close();
      await closer(server)();
    },
  };
}
