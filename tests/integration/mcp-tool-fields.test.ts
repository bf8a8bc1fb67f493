import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { canonicalJson } from "@/server/domain/catalog/canonical";
import { getTool } from "@/server/domain/catalog/queries";
import { modelFacingBytes } from "@/server/domain/catalog/validate-tool";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { simpleTool, startLegacyServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

// A Tool with every optional field clients read, as real servers publish them
// (sequential-thinking's execution, MongoDB's _meta, an MCP App's ui:// resource).
const RICH: ToolDef = simpleTool("rich_tool", {
  title: "Rich tool",
  annotations: { readOnlyHint: true },
  outputSchema: {
    type: "object",
    properties: { total: { type: "number" } },
    required: ["total"],
  },
  icons: [{ src: "https://example.test/icon.png", mimeType: "image/png", sizes: ["48x48"] }],
  _meta: { "ui/resourceUri": "ui://rich/app.html", "com.example/extra": { nested: [1, 2] } },
  execution: { taskSupport: "forbidden" },
  // A field no revision defines yet: kept verbatim in the catalog, not sent to agents.
  "x-vendor": { kept: true },
});

async function richSource() {
  // A 2025-06-18 server, as sequential-thinking is: the SDK's own 2026-07-28 server leaves
  // `execution` out of its listing (tasks are an extension there), which a check must not add.
  const server = await startLegacyServer({
    tools: [RICH],
    onCall: () => ({ content: [{ type: "text", text: '{"total":3}' }], structuredContent: { total: 3 } }),
  });
  closers.push(server.close);
  const { api, source } = await connectionTo(server.url);
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return source;
}

async function rpc(token: string, method: string, params: unknown = {}, version = "2025-11-25") {
  const response = await fetch(mcp.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
}

describe("a Tool's published fields", () => {
  it("are stored verbatim and shown by catalog.getTool, every field included", async () => {
    const source = await richSource();
    const db = await getDb();
    const row = await db.tool.findFirstOrThrow({ where: { sourceId: source.id }, select: { id: true } });
    const tool = await getTool(SYSTEM, { id: row.id });
    expect(tool.definition).toEqual(RICH);
    expect(tool.outputSchema).toEqual(RICH.outputSchema);
  });

  it("reach agents at /mcp tools/list: outputSchema, icons, _meta and execution as published", async () => {
    const source = await richSource();
    const { token } = await agentFor([source.id]);
    const answer = await rpc(token, "tools/list");
    const tools = (answer.result?.tools ?? []) as Record<string, unknown>[];
    expect(answer.error).toBeUndefined();
    // Each test publishes the Tool again, so its model-facing name may not be its native one.
    const listed = tools.find((t) => t.title === "Rich tool");
    expect(listed).toEqual({
      name: listed?.name,
      title: "Rich tool",
      description: RICH.description,
      inputSchema: RICH.inputSchema,
      annotations: RICH.annotations,
      outputSchema: RICH.outputSchema,
      icons: RICH.icons,
      _meta: RICH._meta,
      execution: RICH.execution,
    });
  });

  it("let an SDK client validate structured content against the proxied output schema", async () => {
    const source = await richSource();
    const { token } = await agentFor([source.id]);
    const client = new Client({ name: "fields-agent", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    closers.push(() => client.close());
    const listed = (await client.listTools()).tools.find((t) => t.title === "Rich tool");
    expect(listed?.outputSchema).toEqual(RICH.outputSchema);
    expect(listed?.execution).toEqual(RICH.execution);
    const result = await client.callTool({ name: listed?.name as string, arguments: { query: "q" } });
    expect(result.structuredContent).toEqual({ total: 3 });
  });

  it("leave the budget counting only name, description and input schema", async () => {
    const source = await richSource();
    const db = await getDb();
    const row = await db.tool.findFirstOrThrow({
      where: { sourceId: source.id },
      select: { modelFacingBytes: true, modelFacingName: true },
    });
    const inputSchemaBytes = Buffer.byteLength(canonicalJson(RICH.inputSchema));
    expect(row.modelFacingBytes).toBe(
      modelFacingBytes({ description: RICH.description as string, inputSchemaBytes }, row.modelFacingName as string),
    );
  });
});
