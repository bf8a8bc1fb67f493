/**
 * /mcp served by the front server itself, not through Next.js: agents call it many times a
 * second, and Next's routing of a request to an app route cost more than the route's own
 * work (docs/decisions/0015). The same handler answers (server/mcp/handler.ts); app/mcp/route.ts
 * stays for `next dev` and anything that serves the app without this server.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleMcpOther, handleMcpPostRead } from "../mcp/handler";

export function isMcpRequest(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  return url === "/mcp" || url.startsWith("/mcp?");
}

export async function serveMcpDirect(req: IncomingMessage, res: ServerResponse, https: boolean): Promise<void> {
  const controller = new AbortController();
  // The agent hung up: a call in flight is abandoned, as under Next.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let response: Response;
  if (req.method === "POST") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new Request(
      `${https ? "https" : "http"}://${req.headers.host ?? "localhost"}${req.url ?? "/mcp"}`,
      { method: "POST", headers, signal: controller.signal },
    );
    response = await handleMcpPostRead(request, Buffer.concat(chunks));
  } else response = handleMcpOther();
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  // An event stream is written as it comes: a tools/call may ask the agent's user a question
  // on it and wait for the answer (docs/decisions/0087), so it cannot be read whole first.
  if (response.body && response.headers.get("content-type")?.startsWith("text/event-stream")) {
    res.flushHeaders();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    } catch {
      // The stream ended because the agent hung up; nothing is left to write to.
    }
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
