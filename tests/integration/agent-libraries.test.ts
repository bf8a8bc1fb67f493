/**
 * Two real agent-side MCP client libraries, as an application would use them, against /mcp
 * over real HTTP: the Vercel AI SDK's MCP client (@ai-sdk/mcp) and LangChain's MCP adapters
 * (@langchain/mcp-adapters). Each lists, converts every Tool, calls a built-in and a catalog
 * Tool (the reference server's echo), is told about bad arguments, and reads a Source's
 * resource under its proxied URI.
 */
import { createMCPClient } from "@ai-sdk/mcp";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";

withTestDatabase();
const route = mcpRoute();
let everything: DemoMcpServer;
beforeAll(async () => {
  everything = await startEverythingServer();
}, 30_000);
afterAll(async () => {
  await everything?.stop();
});

async function heldEverything() {
  const { api, source } = await connectionTo(everything.url, { name: `Everything ${Date.now()}` });
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  const { token } = await agentFor([source.id]);
  return { source, token };
}

/** The reference server's echo as this identity sees it (a second Source's echo gets a prefixed model-facing name). */
function echoOf(names: string[]): string {
  expect(names).toContain("find_tools");
  const echo = names.find((n) => n === "echo" || n.endsWith("_echo"));
  expect(echo, names.join(", ")).toBeDefined();
  return echo as string;
}

describe("agent client libraries at /mcp", () => {
  it("the AI SDK's MCP client lists, converts, calls, is told of bad arguments and reads a resource", async () => {
    const { source, token } = await heldEverything();
    const client = await createMCPClient({
      transport: { type: "http", url: route.url, headers: { authorization: `Bearer ${token}` } },
    });
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      const echo = echoOf(listed);
      // Every Tool's schema converts into the AI SDK's tool set.
      const set = await client.tools();
      expect(Object.keys(set).sort()).toEqual([...listed].sort());

      const found = await client.callTool({ name: "find_tools", arguments: { query: "echo a message" } });
      expect(found.isError ?? false).toBe(false);
      const echoed = await client.callTool({ name: echo, arguments: { message: "hello" } });
      expect(JSON.stringify(echoed.content)).toContain("hello");
      const bad = await client.callTool({ name: echo, arguments: { message: 42 } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain("INVALID_ARGUMENTS");

      const resources = (await client.listResources()).resources;
      const uri = resources.find((r) => r.uri.startsWith(`qm://source/${source.id}/`))?.uri as string;
      expect(uri).toBeDefined();
      expect((await client.readResource({ uri })).contents[0]?.uri).toBe(uri);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("LangChain's MCP adapters load every Tool, call them, are told of bad arguments and read a resource", async () => {
    const { source, token } = await heldEverything();
    const client = new MultiServerMCPClient({
      throwOnLoadError: true,
      prefixToolNameWithServerName: false,
      mcpServers: { qm: { transport: "http", url: route.url, headers: { authorization: `Bearer ${token}` } } },
    });
    try {
      const tools = await client.getTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const echo = echoOf([...byName.keys()]);

      const found = await byName.get("find_tools")?.invoke({ query: "echo a message" });
      expect(JSON.stringify(found)).toContain("echo");
      const echoed = await byName.get(echo)?.invoke({ message: "hello" });
      expect(JSON.stringify(echoed)).toContain("hello");
      // LangChain checks arguments against the converted schema itself, or passes on our refusal.
      await expect(
        (async () => {
          const answer = await byName.get(echo)?.invoke({ message: 42 } as never);
          if (!JSON.stringify(answer).includes("INVALID_ARGUMENTS"))
            throw new Error(`accepted: ${JSON.stringify(answer)}`);
          throw new Error("INVALID_ARGUMENTS");
        })(),
      ).rejects.toThrow(/INVALID_ARGUMENTS|schema|expected/i);

      const sdk = await client.getClient("qm");
      const resources = (await sdk?.listResources())?.resources ?? [];
      const uri = resources.find((r) => r.uri.startsWith(`qm://source/${source.id}/`))?.uri as string;
      expect(uri).toBeDefined();
      expect((await sdk?.readResource({ uri }))?.contents[0]?.uri).toBe(uri);
    } finally {
      await client.close();
    }
  }, 60_000);
});
