/**
 * The benchmark's MCP server, run as its own process as a real Source would be: it serves
 * the largest legal catalog (4,096 Tools of 1,023 canonical bytes, 128 pages of 32) at
 * /<name>/<changed>/mcp, where <name> prefixes every Tool name (so each Source can hold
 * its own catalog) and <changed> is "none" or a digit d: every tenth Tool, from the d-th,
 * has a revised description of the same length. Prints its base URL on the first line.
 */
import { canonicalJson } from "@/server/domain/catalog/canonical";
import { startSdkServer, type ToolDef } from "../tests/helpers/mcp-servers";

function largestLegalCatalog(name: string, changed: number | null): ToolDef[] {
  return Array.from({ length: 4096 }, (_, i) => {
    const toolName = `${name}_${String(i).padStart(4, "0")}`;
    const description = changed !== null && i % 10 === changed ? `Revised tool ${changed}.` : "Benchmark Tool.";
    const make = (pad: string) => ({
      name: toolName,
      description,
      inputSchema: { type: "object", properties: { q: { type: "string", description: pad } } },
    });
    return make("x".repeat(1023 - Buffer.byteLength(canonicalJson(make("")))));
  });
}

const catalogs = new Map<string, ToolDef[]>();
const server = await startSdkServer({
  pageSize: 32,
  // Proxied Tool Calls are measured against it too: a short answer, as most Tools give.
  onCall: (name, args) => ({ content: [{ type: "text", text: `${name}: ${JSON.stringify(args)}` }] }),
  catalog(path) {
    const [, name = "tool", changed = "none"] = path.split("/");
    const key = `${name}/${changed}`;
    let catalog = catalogs.get(key);
    if (!catalog) {
      catalog = largestLegalCatalog(name, changed === "none" ? null : Number(changed));
      catalogs.set(key, catalog);
      // Each Source lists its catalog a few times, one after another: the newest few are enough.
      for (const old of catalogs.keys()) if (catalogs.size > 4) catalogs.delete(old);
    }
    return catalog;
  },
});
console.log(server.url.replace(/\/mcp$/, ""));
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
