/**
 * A held Source's resources, templates and prompts through /mcp, over real HTTP from real
 * SDK servers to real client libraries on every served revision: URIs mapped so two Sources
 * never clash and mapped back on the way in, a proxied Tool's resource_link readable, prompts
 * namespaced, long lists paged, a missing resource answered as resource not found, and
 * nothing of a Source the identity does not hold.
 */
import { ProtocolError, Server } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { everyPage } from "../helpers/every-page";
import { agentFor } from "../helpers/mcp-agent";
import { CLIENT_KINDS, connectClient } from "../helpers/mcp-clients";
import { mcpRoute } from "../helpers/mcp-route";
import { postMcp } from "../helpers/mcp-rpc";
import { serveMcp, simpleTool } from "../helpers/mcp-servers";

withTestDatabase();
const route = mcpRoute();

/** An SDK server with `count` resources (file:///doc-<n>.txt, 100 a page), a template, a prompt and a linking Tool. */
async function surfaceServer(label: string, count: number, name = `Surface ${label} ${Date.now()}`) {
  const newServer = () => {
    const mcp = new Server(
      { name: `surface-${label}`, version: "1" },
      { capabilities: { tools: {}, resources: {}, prompts: {} } },
    );
    const uri = (n: number) => `file:///doc-${n}.txt`;
    mcp.setRequestHandler("resources/list", async (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const end = Math.min(start + 100, count);
      const resources = Array.from({ length: end - start }, (_, i) => ({
        uri: uri(start + i),
        name: `doc-${start + i}`,
      }));
      return { resources, ...(end < count ? { nextCursor: String(end) } : {}) };
    });
    mcp.setRequestHandler("resources/templates/list", async () => ({
      resourceTemplates: [{ uriTemplate: "file:///{name}.txt", name: "doc" }],
    }));
    mcp.setRequestHandler("resources/read", async (request) => {
      const n = /^file:\/\/\/doc-(\d+)\.txt$/.exec(request.params.uri)?.[1];
      if (n === undefined || Number(n) >= count)
        throw new ProtocolError(-32002, `Resource not found: ${request.params.uri}`, { uri: request.params.uri });
      return { contents: [{ uri: request.params.uri, mimeType: "text/plain", text: `${label} doc ${n}` }] };
    });
    mcp.setRequestHandler("prompts/list", async () => ({
      prompts: [{ name: "summarize", description: "Summarize a doc", arguments: [{ name: "doc", required: true }] }],
    }));
    mcp.setRequestHandler("prompts/get", async (request) => {
      if (request.params.name !== "summarize") throw new ProtocolError(-32602, `Unknown prompt ${request.params.name}`);
      return {
        messages: [
          { role: "user", content: { type: "text", text: `Summarize ${label} ${request.params.arguments?.doc}` } },
          { role: "user", content: { type: "resource_link", uri: uri(0), name: "doc-0" } },
        ],
      };
    });
    mcp.setRequestHandler("tools/list", async () => ({ tools: [simpleTool(`links_${label}`) as never] }));
    mcp.setRequestHandler("tools/call", async () => ({
      content: [
        { type: "text", text: "Two docs:" },
        { type: "resource_link", uri: uri(1), name: "doc-1" },
        { type: "resource", resource: { uri: uri(2), text: `${label} doc 2` } },
      ],
    }));
    return mcp;
  };
  const served = await serveMcp(newServer);
  route.closers.push(served.close);
  const { api, source } = await connectionTo(served.url, {
    name,
  });
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return source;
}

const proxied = (sourceId: string, uri: string) => `qm://source/${sourceId}/${uri}`;

describe("a held Source's resources and prompts at /mcp", () => {
  it("reach every client library, mapped per Source, with a proxied Tool's links readable", async () => {
    const a = await surfaceServer("a", 3);
    const b = await surfaceServer("b", 3);
    const { token } = await agentFor([a.id, b.id]);
    for (const kind of CLIENT_KINDS) {
      const client = await connectClient(kind, route.url, token);
      try {
        // The same URI on two Sources is two resources.
        const listed = (await everyPage((p) => client.listResources(p), "resources")).map((r) => r.uri);
        expect(listed, kind).toContain(proxied(a.id, "file:///doc-0.txt"));
        expect(listed, kind).toContain(proxied(b.id, "file:///doc-0.txt"));
        expect(new Set(listed).size, kind).toBe(6);
        const read = await client.readResource({ uri: proxied(b.id, "file:///doc-1.txt") });
        expect(read.contents, kind).toEqual([
          { uri: proxied(b.id, "file:///doc-1.txt"), mimeType: "text/plain", text: "b doc 1" },
        ]);
        const templates = (await everyPage((p) => client.listResourceTemplates(p), "resourceTemplates")).map(
          (t) => t.uriTemplate,
        );
        expect(templates, kind).toEqual(
          expect.arrayContaining([
            "qm://memory/{id}",
            proxied(a.id, "file:///{name}.txt"),
            proxied(b.id, "file:///{name}.txt"),
          ]),
        );

        // A proxied Tool's links name the proxied URI, which reads on its Source.
        const tools = (await client.listTools()).tools.map((t) => t.name as string);
        const linking = tools.find((t) => t.endsWith("links_a")) as string;
        const result = await client.callTool({ name: linking, arguments: { query: "x" } });
        const linkText = JSON.stringify(result.content);
        expect(linkText, kind).toContain(proxied(a.id, "file:///doc-1.txt"));
        expect(linkText, kind).toContain(proxied(a.id, "file:///doc-2.txt"));
        expect((await client.readResource({ uri: proxied(a.id, "file:///doc-1.txt") })).contents[0]?.text, kind).toBe(
          "a doc 1",
        );

        // Prompts are namespaced by Source; a link in one is mapped too.
        const prompts = (await everyPage((p) => client.listPrompts(p), "prompts")).map((p) => p.name as string);
        expect(prompts, kind).toEqual(expect.arrayContaining(["briefing", expect.stringMatching(/_summarize$/)]));
        const names = prompts.filter((p) => p.endsWith("_summarize"));
        expect(names.length, kind).toBe(2);
        const got = await client.getPrompt({ name: names[0] as string, arguments: { doc: "7" } });
        expect(got.messages[0]?.content, kind).toEqual({
          type: "text",
          text: expect.stringMatching(/^Summarize [ab] 7$/),
        });
        expect(JSON.stringify(got.messages[1]?.content), kind).toMatch(/qm:\/\/source\/[^/]+\/file:\/\/\/doc-0\.txt/);
      } finally {
        await client.close();
      }
    }
  });

  it("pages a long list, answers a missing resource as not found, and reaches nothing the identity does not hold", async () => {
    const big = await surfaceServer("big", 1234);
    const other = await surfaceServer("other", 2);
    const { token } = await agentFor([big.id]);
    // Pages as sent: one Source's page at a time, none over 500 items.
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = (await (
        await postMcp(
          route.url,
          token,
          { jsonrpc: "2.0", id: 1, method: "resources/list", params: cursor ? { cursor } : {} },
          { "mcp-protocol-version": "2025-11-25" },
        )
      ).json()) as { result: { resources: { uri: string }[]; nextCursor?: string } };
      expect(answer.result.resources.length).toBeLessThanOrEqual(500);
      seen.push(...answer.result.resources.map((r) => r.uri));
      cursor = answer.result.nextCursor;
      pages++;
    } while (cursor);
    expect(seen.length).toBe(1234);
    expect(new Set(seen).size).toBe(1234);
    expect(pages).toBeGreaterThan(2);

    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      await expect(client.readResource({ uri: proxied(big.id, "file:///doc-99999.txt") })).rejects.toMatchObject({
        code: -32002,
      });
      // Another Source's resource, and a made-up Source, are not there for this identity.
      await expect(client.readResource({ uri: proxied(other.id, "file:///doc-0.txt") })).rejects.toMatchObject({
        code: -32002,
      });
      await expect(client.readResource({ uri: "qm://source/nope/file:///doc-0.txt" })).rejects.toMatchObject({
        code: -32002,
      });
      expect((await client.listPrompts()).prompts.some((p) => String(p.name).startsWith("surface_other"))).toBe(false);
    } finally {
      await client.close();
    }
    const bad = await postMcp(
      route.url,
      token,
      { jsonrpc: "2.0", id: 1, method: "resources/list", params: { cursor: "not-ours" } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    const answer = (await bad.json()) as { error?: { message: string } };
    expect(answer.error?.message).toContain("cursor");
  });

  it("logs, traces and rate limits resource reads and prompt gets like Tool Calls", async () => {
    const source = await surfaceServer("logged", 3);
    const { api, identity, token } = await agentFor([source.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      const uri = proxied(source.id, "file:///doc-1.txt");
      await client.readResource({ uri });
      await expect(client.readResource({ uri: proxied(source.id, "file:///doc-99.txt") })).rejects.toMatchObject({
        code: -32002,
      });
      const prompt = (await client.listPrompts()).prompts.find((p) => String(p.name).endsWith("_summarize"))
        ?.name as string;
      await client.getPrompt({ name: prompt, arguments: { doc: "3" } });

      await flushCallLog();
      const db = await getDb();
      const rows = await db.callLog.findMany({ where: { identityId: identity.id }, orderBy: { startedAt: "asc" } });
      expect(
        rows.map((r) => [r.toolName, r.nativeName, r.sourceId, r.sourceName, r.outcome, r.failureCode, r.builtIn]),
      ).toEqual([
        [uri, "file:///doc-1.txt", source.id, source.name, "ok", null, false],
        [
          proxied(source.id, "file:///doc-99.txt"),
          "file:///doc-99.txt",
          source.id,
          source.name,
          "failed",
          "NOT_FOUND",
          false,
        ],
        [prompt, "summarize", source.id, source.name, "ok", null, false],
      ]);
      expect(rows[2]?.bytesIn).toBeGreaterThan(0);

      // The identity's limit counts reads and gets with its Tool Calls.
      await api.rateLimits.set({ subjectType: "identity", subjectId: identity.id, perMinute: 1, concurrent: null });
      await client.readResource({ uri });
      await expect(client.readResource({ uri })).rejects.toThrow(/RATE_LIMITED|limit/i);
      await expect(client.getPrompt({ name: prompt, arguments: { doc: "3" } })).rejects.toThrow(/RATE_LIMITED|limit/i);
      await flushCallLog();
      const refused = await db.callLog.findMany({ where: { identityId: identity.id, failureCode: "RATE_LIMITED" } });
      expect(refused.length).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("keeps prompt names through a Source rename, and two Sources whose names slug alike never share one", async () => {
    const t = Date.now();
    const first = await surfaceServer("first", 1, `Clash Docs ${t}`);
    const second = await surfaceServer("second", 1, `clash-docs ${t}`);
    const { api, token } = await agentFor([first.id, second.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      const summarizers = async () =>
        (await everyPage((p) => client.listPrompts(p), "prompts"))
          .map((p) => String(p.name))
          .filter((p) => p.endsWith("_summarize"));
      const before = await summarizers();
      expect(before.length).toBe(2);
      expect(new Set(before).size).toBe(2);
      // Each name reaches its own Source.
      const texts = await Promise.all(
        before.map(async (name) => {
          const got = await client.getPrompt({ name, arguments: { doc: "1" } });
          return JSON.stringify(got.messages[0]?.content);
        }),
      );
      expect(texts.sort()).toEqual([
        JSON.stringify({ type: "text", text: "Summarize first 1" }),
        JSON.stringify({ type: "text", text: "Summarize second 1" }),
      ]);

      await api.sources.update({ id: first.id, name: `Renamed entirely ${t}` });
      expect(await summarizers()).toEqual(before);
      const got = await client.getPrompt({ name: before[0] as string, arguments: { doc: "2" } });
      expect(JSON.stringify(got.messages[0]?.content)).toMatch(/"Summarize (first|second) 2"/);
    } finally {
      await client.close();
    }
  });
});
