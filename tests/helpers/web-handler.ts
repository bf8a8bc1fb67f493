/**
 * Serves a web-standard route handler ((Request) => Response, as Next.js calls it) on a
 * loopback port, so tests reach it over real HTTP with real clients.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export async function serveHandler(
  handlers: Partial<Record<string, (request: Request) => Promise<Response> | Response>>,
  path: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const handler = handlers[req.method ?? "GET"];
    if (!handler || req.url?.split("?")[0] !== path) {
      res.writeHead(404).end();
      return;
    }
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
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
