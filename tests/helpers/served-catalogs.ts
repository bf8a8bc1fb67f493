import { afterAll } from "vitest";
import { type RunningServer, startSdkServer, type ToolDef } from "./mcp-servers";

/**
 * SDK servers for one test file, each closed after the file's tests: `serve(catalog)` starts
 * one; `servers` takes any other server the file starts, to be closed with them.
 */
export function servedCatalogs() {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  async function serve(catalog: () => ToolDef[]) {
    const server = await startSdkServer({ catalog });
    servers.push(server);
    return server;
  }
  return { servers, serve };
}
