/**
 * Every revision /mcp serves, through real client libraries pinned to each: the same
 * built-in and proxied results, each in the shapes of its revision. 2025-03-26 has no
 * resource_link block (its clients refuse a whole result carrying one), so a link arrives
 * there as a text line with its URI.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { grantScope } from "@/server/domain/memory/scopes";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { CLIENT_KINDS, connectClient } from "../helpers/mcp-clients";
import { mcpRoute } from "../helpers/mcp-route";
import { postMcp } from "../helpers/mcp-rpc";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();
const route = mcpRoute();

let sources = 0;
const LINK = {
  type: "resource_link",
  uri: "file:///reports/q3.md",
  name: "q3.md",
  description: "The Q3 report",
} as const;

async function agentWithLinks() {
  const server = await startSdkServer({
    catalog: () => [simpleTool("get_report")],
    onCall: () => ({ content: [{ type: "text", text: "Here is the report." }, LINK] }),
  });
  route.closers.push(server.close);
  const { api, source } = await connectionTo(server.url, { name: `reports-${++sources}` });
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  const scope = await makeScope();
  const memory = await remember(scope.id, "The deploy runbook lives in the ops wiki.");
  const { identity, token } = await agentFor([source.id]);
  await grantScope(SYSTEM, { scopeId: scope.id, identityId: identity.id, access: "read" });
  return { token, memoryUri: `qm://memory/${memory.id}`, scope: scope.name, sourceId: source.id };
}

async function raw(token: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await postMcp(route.url, token, body, headers);
  type Answer = { result: { protocolVersion: string; content: { type: string }[] } };
  return { status: response.status, body: (await response.json()) as Answer };
}

describe("/mcp on every served revision", () => {
  it("gives each client library the same built-in and proxied results, a resource_link as a text line before 2025-06-18", async () => {
    const { token, memoryUri, scope, sourceId } = await agentWithLinks();
    // The Source's own URI, as /mcp maps it (so the agent can read it there).
    const linked = `qm://source/${sourceId}/${LINK.uri}`;
    for (const kind of CLIENT_KINDS) {
      const client = await connectClient(kind, route.url, token);
      try {
        const linksAsBlocks = client.revision >= "2025-06-18";
        const tools = (await client.listTools()).tools.map((t) => t.name as string);
        expect(tools, kind).toContain("search");
        expect(tools, kind).toContain("get_report");

        const found = await client.callTool({ name: "search", arguments: { query: "runbook", scope } });
        expect(found.isError, kind).toBeFalsy();
        expect((found.structuredContent as { total: number }).total, kind).toBe(1);
        const types = found.content?.map((c) => c.type);
        if (linksAsBlocks) {
          expect(types, kind).toEqual(["text", "resource_link"]);
          expect(found.content?.[1], kind).toMatchObject({ uri: memoryUri, mimeType: "text/markdown" });
        } else {
          expect(types, kind).toEqual(["text", "text"]);
          expect(found.content?.[1]?.text, kind).toMatch(
            new RegExp(`^Linked resources \\(read with resources/read\\):\n- [^\n]+: ${memoryUri}$`),
          );
        }

        const proxied = await client.callTool({ name: "get_report", arguments: { query: "q3" } });
        expect(proxied.content?.[0], kind).toEqual({ type: "text", text: "Here is the report." });
        expect(proxied.content?.[1], kind).toEqual(
          linksAsBlocks
            ? { ...LINK, uri: linked }
            : {
                type: "text",
                text: `Linked resources (read with resources/read):\n- q3.md: ${linked} — The Q3 report`,
              },
        );
        // What the link names is readable on every revision.
        const read = await client.readResource({ uri: memoryUri });
        expect(read.contents[0]?.text, kind).toBe("The deploy runbook lives in the ops wiki.");
      } finally {
        await client.close();
      }
    }
  });

  it("assumes 2025-03-26 without a revision header, and does not serve revisions before it", async () => {
    const { token, scope } = await agentWithLinks();
    const search = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: { scope } } };
    const headerless = await raw(token, search);
    expect(headerless.body.result.content.map((c) => c.type)).toEqual(["text", "text"]);
    const current = await raw(token, search, { "mcp-protocol-version": "2025-11-25" });
    expect(current.body.result.content.map((c) => c.type)).toEqual(["text", "resource_link"]);

    // 2024-11-05 spoke HTTP+SSE: an initialize offering it is answered with the latest 2025 revision.
    const init = await raw(token, {
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect(init.body.result.protocolVersion).toBe("2025-11-25");
    for (const served of ["2025-03-26", "2025-06-18", "2025-11-25"]) {
      const answer = await raw(token, {
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: served, capabilities: {}, clientInfo: { name: "c", version: "1" } },
      });
      expect(answer.body.result.protocolVersion).toBe(served);
    }
    const old = await raw(token, search, { "mcp-protocol-version": "2024-11-05" });
    expect(old.status).toBe(400);
    expect(JSON.stringify(old.body)).toContain("2025-03-26");
  });
});
