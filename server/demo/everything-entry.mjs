/**
 * The demo's live Source, in a process of its own: the reference MCP server from npm
 * (@modelcontextprotocol/server-everything) with only the Tools that neither read this
 * process's environment nor fetch URLs, served on loopback to non-browser clients.
 *
 * Plain JavaScript, started with `node` and an environment of PATH and PORT only (see
 * everything-server.ts): nothing of Quartermaster's configuration reaches it.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

// server-everything is built on the MCP SDK's 1.x package, which Quartermaster itself no
// longer uses (docs/decisions/0013): its server class and transport are loaded from the copy
// server-everything itself resolves, so the allowlist below patches the very class it uses.
const everythingEntry = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/server/index.js",
);
const fromEverything = createRequire(everythingEntry);
const esmOf = (specifier) =>
  import(pathToFileURL(fromEverything.resolve(specifier).replace(/[\\/]dist[\\/]cjs[\\/]/, "/dist/esm/")).href);
const { McpServer } = await esmOf("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = await esmOf("@modelcontextprotocol/sdk/server/streamableHttp.js");

// What the demo's Agent Identities may be given. Not here, on purpose: get-env (this
// process's environment), gzip-file-as-resource (fetches any URL, past the Connection
// network policy), and anything a later server-everything adds until someone reads it.
const DEMO_TOOLS = new Set([
  "echo",
  "get-annotated-message",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "trigger-long-running-operation",
]);

// Every way of registering a Tool (registerTool, tool, experimental task Tools) ends in this
// one method; if an SDK release renames it, refuse to start rather than serve every Tool.
const createRegisteredTool = McpServer.prototype._createRegisteredTool;
if (typeof createRegisteredTool !== "function") {
  process.send?.({ error: "the MCP SDK changed: cannot limit the demo's Tools" });
  process.exit(1);
}
McpServer.prototype._createRegisteredTool = function allowlisted(name, ...rest) {
  if (DEMO_TOOLS.has(name)) return createRegisteredTool.call(this, name, ...rest);
  return { enabled: false, enable() {}, disable() {}, update() {}, remove() {} };
};
const { createServer } = await import(pathToFileURL(everythingEntry).href);

const port = Number(process.env.PORT);
// Host names a loopback client may use; set once listening (PORT may be 0: any free port).
let allowedHosts = [];
const sessions = new Map();

function refuse(res, status, message) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

const httpServer = http.createServer(async (req, res) => {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== "/mcp") return refuse(res, 404, "Not found: the MCP endpoint is /mcp.");
  // A browser page (which always sends Origin) has no business here: no CORS, no rebinding.
  if (req.headers.origin) return refuse(res, 403, "Browser requests are not accepted.");
  try {
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) return await existing.transport.handleRequest(req, res);
    if (sessionId) return refuse(res, 404, "Unknown session.");
    if (req.method !== "POST") return refuse(res, 400, "Start a session with a POST initialize request.");
    const { server, cleanup } = createServer();
    // A server from another copy of the SDK would not have the allowlist: serve nothing then.
    if (!(server instanceof McpServer)) throw new Error("server-everything uses another MCP SDK copy");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => sessions.set(id, { transport, cleanup }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      cleanup(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch {
    if (!res.headersSent) refuse(res, 500, "Internal error.");
  }
});

httpServer.on("error", (error) => {
  process.send?.({ error: error.code ?? String(error) });
  process.exit(1);
});
httpServer.listen(port, "127.0.0.1", () => {
  const listening = httpServer.address().port;
  allowedHosts = [`127.0.0.1:${listening}`, `localhost:${listening}`];
  process.send?.({ listening });
});
// The parent's lifetime is ours: when it goes (even killed), so does this server.
process.on("disconnect", () => process.exit(0));
