/**
 * The reference MCP server from npm (@modelcontextprotocol/server-everything, as the demo
 * starts it) as a Source, over real HTTP: its Tools, resources, templates and prompts reach
 * an agent at /mcp, and the resource_links its get-resource-links Tool returns read there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { everyPage } from "../helpers/every-page";
import { agentFor } from "../helpers/mcp-agent";
import { connectClient } from "../helpers/mcp-clients";
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

describe("server-everything as a Source", () => {
  it("serves its Tools, resources, templates and prompts through /mcp", async () => {
    const { api, source } = await connectionTo(everything.url, { name: `Everything ${Date.now()}` });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const { token } = await agentFor([source.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      const prefix = `qm://source/${source.id}/`;
      const tools = (await client.listTools()).tools.map((t) => String(t.name));
      expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-resource-links"]));

      const resources = await everyPage((p) => client.listResources(p), "resources");
      expect(resources.length).toBeGreaterThan(0);
      for (const r of resources) expect(String(r.uri).startsWith(prefix)).toBe(true);
      const first = resources[0] as { uri: string };
      const read = await client.readResource({ uri: first.uri });
      expect(read.contents[0]?.uri).toBe(first.uri);

      const templates = await everyPage((p) => client.listResourceTemplates(p), "resourceTemplates");
      expect(templates.some((t) => String(t.uriTemplate).startsWith(prefix))).toBe(true);

      // A link the Tool hands over names a proxied URI that reads on the Source.
      const linked = await client.callTool({ name: "get-resource-links", arguments: { count: 2 } });
      const links = (linked.content as { type: string; uri?: string }[]).filter((b) => b.type === "resource_link");
      expect(links.length).toBe(2);
      for (const link of links) {
        expect(link.uri?.startsWith(prefix)).toBe(true);
        const contents = (await client.readResource({ uri: link.uri as string })).contents;
        expect(contents.length).toBeGreaterThan(0);
      }

      const prompts = (await everyPage((p) => client.listPrompts(p), "prompts")).map((p) => String(p.name));
      const simple = prompts.find((p) => p.endsWith("_simple-prompt"));
      expect(simple, prompts.join(", ")).toBeDefined();
      const got = await client.getPrompt({ name: simple as string });
      expect(got.messages.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 60_000);
});
