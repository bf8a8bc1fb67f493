/**
 * /mcp on a loopback port for one test file, and whatever else the file starts, closed
 * together after its tests. Call at the top level of a test file.
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll } from "vitest";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { serveHandler } from "./web-handler";

export interface McpRoute {
  url: string;
  closers: (() => Promise<void>)[];
  /** An SDK Client on this /mcp with an agent token, closed with the route. */
  connect(token: string, name?: string, options?: ClientOptions, transport?: { fetch?: typeof fetch }): Promise<Client>;
}

export function mcpRoute(): McpRoute {
  const route: McpRoute = {
    url: "",
    closers: [],
    async connect(token, name = "test-agent", options, transport = {}) {
      const client = new Client({ name, version: "1" }, options);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(route.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
          ...(transport.fetch ? { fetch: transport.fetch } : {}),
        }),
      );
      route.closers.push(() => client.close());
      return client;
    },
  };
  beforeAll(async () => {
    const served = await serveHandler({ POST: handleMcpPost, GET: handleMcpOther, DELETE: handleMcpOther }, "/mcp");
    route.url = served.url;
    route.closers.push(served.close);
  });
  afterAll(async () => {
    await Promise.all(route.closers.map((close) => close()));
  });
  return route;
}
