/**
 * Serves web-standard route handlers ((Request) => Response, as Next.js calls them) on a
 * loopback port, so tests reach them over real HTTP with real clients.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type WebHandler = (request: Request) => Promise<Response> | Response;
export type MethodHandlers = Partial<Record<string, WebHandler>>;

/** A request as the server saw it: for tests that count or size what a client sent. */
export interface SeenRequest {
  method: string;
  path: string;
  bytes: number;
}

export interface ServedRoutes {
  url: string;
  port: number;
  /** Every request received so far, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Serves `route(pathname)`'s handlers. The Request's signal aborts when the client goes
 * away (as Next.js does) and when the server closes, so a handler still waiting stops.
 */
export async function serveRoutes(
  route: (pathname: string) => MethodHandlers | undefined,
  options: { port?: number } = {},
): Promise<ServedRoutes> {
  const seen: SeenRequest[] = [];
  const inFlight = new Set<AbortController>();
  const server = http.createServer(async (req, res) => {
    const pathname = req.url?.split("?")[0] ?? "/";
    const handler = route(pathname)?.[req.method ?? "GET"];
    const entry: SeenRequest = { method: req.method ?? "GET", path: pathname, bytes: 0 };
    seen.push(entry);
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const url = `http://${req.headers.host}${req.url}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    req.on("data", (chunk: Buffer) => {
      entry.bytes += chunk.byteLength;
    });
    const gone = new AbortController();
    inFlight.add(gone);
    res.on("close", () => {
      inFlight.delete(gone);
      if (!res.writableFinished) gone.abort();
    });
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: "half",
      signal: gone.signal,
    } as RequestInit);
    try {
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    } catch {
      // The client went away while the body was read: nothing to answer.
      res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        // As a process that dies: its handlers stop now, not when the sockets' close events come round.
        for (const request of inFlight) request.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function serveHandler(
  handlers: MethodHandlers,
  path: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const served = await serveRoutes((pathname) => (pathname === path ? handlers : undefined));
  return { url: `${served.url}${path}`, close: served.close };
}
