/**
 * /mcp on a loopback port for one test file, and whatever else the file starts, closed
 * together after its tests. Call at the top level of a test file.
 */
import { afterAll, beforeAll } from "vitest";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { serveHandler } from "./web-handler";

export function mcpRoute() {
  const route = { url: "", closers: [] as (() => Promise<void>)[] };
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
