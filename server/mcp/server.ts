/**
 * The MCP server one /mcp request talks to, built for the Agent Identity behind its token:
 * its catalog Tools under their model-facing names, proxied to their Sources, and the
 * built-in find_tools. Stateless: nothing outlives the request, so any instance serves any
 * request. Thin: every decision is in server/domain/agent-tools.
 */
import { type CallToolResult, Server, type Tool } from "@modelcontextprotocol/server";
import type { Actor } from "../actor";
import { callOfferedTool } from "../domain/agent-tools/call";
import { findOfferedTools } from "../domain/agent-tools/find";
import { listOfferedTools } from "../domain/agent-tools/list";
import { observeToolCall } from "../domain/calls/observe";
import { log } from "../log";
import { toMcpError } from "./errors";

const INSTRUCTIONS = `Quartermaster offers this agent the Tools of its Agent Identity, each under a name unique to it, and runs every call on the Tool's own server. When the Tool you need is not in view, call find_tools with words from its name or purpose. A Tool Result marked isError starts with a code (for example TOOL_CALL_TIMEOUT) and says what went wrong; another call may succeed.`;

const FIND_TOOLS: Tool = {
  name: "find_tools",
  title: "Find Tools",
  description:
    "Search this agent's own Tools by name and description. Use it when the Tool you need is not among those in view: it returns the best matches, each with the exact name to call.",
  inputSchema: {
    type: "object",
    properties: {
      query: {
        type: "string",
        description: "Words the Tool's name or description contains, e.g. 'create invoice'.",
      },
      limit: { type: "integer", minimum: 1, maximum: 50, description: "Most matches to return; 10 if omitted." },
    },
    required: ["query"],
  },
  outputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      total: { type: "integer", description: "How many Tools match in all." },
      tools: {
        type: "array",
        items: {
          type: "object",
          properties: { name: { type: "string" }, description: { type: "string" }, source: { type: "string" } },
          required: ["name", "description", "source"],
        },
      },
    },
    required: ["query", "total", "tools"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

async function findTools(actor: Actor, args: unknown): Promise<CallToolResult> {
  const found = await findOfferedTools(actor, args);
  const lines = found.tools.map((t) => `- ${t.name} (${t.source}): ${t.description.slice(0, 200)}`);
  const text = found.tools.length
    ? `${found.total} Tools match "${found.query}"${found.total > found.tools.length ? `; the best ${found.tools.length}` : ""}:\n${lines.join("\n")}`
    : `No Tool of this agent matches "${found.query}".`;
  return { content: [{ type: "text" as const, text }], structuredContent: { ...found } };
}

export function buildMcpServer(actor: Actor, signal: AbortSignal): Server {
  const server = new Server(
    { name: "quartermaster", title: "Quartermaster", version: "1.0.0" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler("tools/list", async (request) => {
    try {
      const page = await listOfferedTools(actor, { cursor: request.params?.cursor });
      // A name given before built-in names were reserved is kept (names are stable); the
      // built-in answers to it, so the catalog Tool cannot be offered under it.
      const shadowed = page.tools.filter((t) => t.name === FIND_TOOLS.name);
      if (shadowed.length) log.warn({ tools: shadowed.map((t) => t.name) }, "catalog Tool shadowed by a built-in");
      const catalog = page.tools.filter((t) => t.name !== FIND_TOOLS.name) as Tool[];
      // The built-ins lead the first page.
      const tools: Tool[] = [...(request.params?.cursor ? [] : [FIND_TOOLS]), ...catalog];
      return page.nextCursor ? { tools, nextCursor: page.nextCursor } : { tools };
    } catch (error) {
      throw toMcpError(error);
    }
  });
  server.setRequestHandler("tools/call", async (request) => {
    try {
      const { name, arguments: args } = request.params;
      // Rate limits, the call log, the span and the metrics of every call (domain/calls).
      return await observeToolCall(actor, { name, arguments: args }, async () => {
        if (name === FIND_TOOLS.name) return await findTools(actor, args ?? {});
        // Content blocks pass through as the Source sent them; their limits were checked.
        return (await callOfferedTool(actor, { name, arguments: args, signal })) as CallToolResult;
      });
    } catch (error) {
      throw toMcpError(error);
    }
  });
  return server;
}
