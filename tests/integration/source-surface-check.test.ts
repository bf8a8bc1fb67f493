/**
 * A catalog check records what a Source offers besides Tools (resources, resource templates,
 * prompts), paged through their cursors and bounded like tools/list, and never fails over
 * them: a server without the capabilities, or one whose prompts/list errors, is checked OK
 * with that recorded. The tRPC API returns the lists with the URIs and names agents use at
 * /mcp, and Sources whose names nest ("Docs", "Docs Server") get prompt names that never clash.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { listMcpCatalog } from "@/server/domain/catalog/mcp-lister";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { connectClient } from "../helpers/mcp-clients";
import { mcpRoute } from "../helpers/mcp-route";
import {
  type RunningServer,
  type SurfaceServerOptions,
  simpleTool,
  startSdkServer,
  startSurfaceServer,
} from "../helpers/mcp-servers";

withTestDatabase();
const route = mcpRoute();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(options: SurfaceServerOptions) {
  const server = await startSurfaceServer(options);
  servers.push(server);
  return server;
}

async function checked(url: string, name?: string) {
  const { api, source } = await connectionTo(url, name ? { name } : {});
  const outcome = await api.sources.checkNow({ id: source.id });
  expect(outcome.status).toBe("succeeded");
  return { api, source };
}

describe("a catalog check lists a Source's resources, templates and prompts", () => {
  it("records them all, paged, and the API returns them with the URIs and names agents use", async () => {
    const server = await serve({
      resources: 250,
      pageSize: 100,
      templates: [{ uriTemplate: "file:///{name}.txt", name: "doc", description: "Any doc", mimeType: "text/plain" }],
      prompts: [
        {
          name: "summarize",
          description: "Summarize a doc",
          arguments: [{ name: "doc", description: "Which doc", required: true }, { name: "tone" }],
        },
      ],
    });
    const { api, source } = await checked(server.url);

    const surface = await api.sources.surface({ id: source.id });
    expect(surface.resources).toMatchObject({ status: "listed", pages: 3, count: 250, failure: null });
    expect(surface.templates).toMatchObject({ status: "listed", pages: 1, count: 1, failure: null });
    expect(surface.prompts).toMatchObject({ status: "listed", pages: 1, count: 1, failure: null });
    expect(surface.resources.bytes).toBeGreaterThan(0);

    // Every resource, in the server's order, over pages of the API.
    const first = await api.sources.surfaceItems({ id: source.id, kind: "resource", limit: 200 });
    expect(first.total).toBe(250);
    expect(first.items[0]).toMatchObject({
      name: "doc-0",
      uri: "file:///doc-0.txt",
      description: "Document 0",
      mimeType: "text/plain",
      proxied: `qm://source/${source.id}/file:///doc-0.txt`,
    });
    const rest = await api.sources.surfaceItems({
      id: source.id,
      kind: "resource",
      limit: 200,
      cursor: first.nextCursor ?? undefined,
    });
    expect(rest.nextCursor).toBeNull();
    expect([...first.items, ...rest.items].map((r) => r.name)).toEqual(
      Array.from({ length: 250 }, (_, i) => `doc-${i}`),
    );

    const templates = await api.sources.surfaceItems({ id: source.id, kind: "template" });
    expect(templates.items).toEqual([
      expect.objectContaining({
        name: "doc",
        uri: "file:///{name}.txt",
        description: "Any doc",
        mimeType: "text/plain",
        proxied: `qm://source/${source.id}/file:///{name}.txt`,
      }),
    ]);

    // The prompt's name is the one /mcp lists, fixed by the check.
    const prompts = await api.sources.surfaceItems({ id: source.id, kind: "prompt" });
    expect(prompts.items).toEqual([
      expect.objectContaining({
        name: "summarize",
        uri: null,
        description: "Summarize a doc",
        arguments: [{ name: "doc", description: "Which doc", required: true }, { name: "tone" }],
        proxied: expect.stringMatching(/_summarize$/),
      }),
    ]);
    const { token } = await agentFor([source.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      const listed = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(listed).toContain(prompts.items[0]?.proxied);
      const read = await client.readResource({ uri: first.items[3]?.proxied as string });
      expect(read.contents[0]?.text).toBe("surface file:///doc-3.txt");
    } finally {
      await client.close();
    }

    // A later check replaces what the earlier one recorded.
    const again = await api.sources.checkNow({ id: source.id });
    expect(again.status).toBe("succeeded");
    expect((await api.sources.surface({ id: source.id })).resources.checkId).toBe(again.checkId);
    expect((await api.sources.surfaceItems({ id: source.id, kind: "resource", limit: 1 })).total).toBe(250);
  });

  it("a server without those capabilities is checked OK with nothing offered", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("only_tools")] });
    servers.push(server);
    const { api, source } = await checked(server.url);
    expect((await api.sources.get({ id: source.id })).toolCount).toBe(1);
    const surface = await api.sources.surface({ id: source.id });
    for (const list of [surface.resources, surface.templates, surface.prompts])
      expect(list).toMatchObject({ status: "not_offered", count: 0, failure: null });
    for (const kind of ["resource", "template", "prompt"] as const)
      expect(await api.sources.surfaceItems({ id: source.id, kind })).toEqual({
        items: [],
        total: 0,
        nextCursor: null,
      });
  });

  it("a server whose prompts/list errors is checked OK, the error recorded, the rest listed", async () => {
    const server = await serve({
      resources: 2,
      promptsListError: { code: -32603, message: "prompt store is down" },
    });
    const { api, source } = await checked(server.url);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("ok");
    const surface = await api.sources.surface({ id: source.id });
    expect(surface.resources).toMatchObject({ status: "listed", count: 2 });
    expect(surface.templates).toMatchObject({ status: "listed", count: 0 });
    expect(surface.prompts).toMatchObject({
      status: "failed",
      count: 0,
      failure: { code: "CATALOG_REMOTE_ERROR", message: expect.stringContaining("prompt store is down") },
    });
    expect(surface.prompts.failure?.message).toContain("prompts/list");
  });

  it("bounds each list like tools/list: past a limit the list is truncated, the check still succeeds", async () => {
    const server = await serve({ resources: 50, pageSize: 10, prompts: [{ name: "a" }, { name: "b" }, { name: "c" }] });
    const { surface, tools } = await listMcpCatalog({
      url: server.url,
      headers: {},
      allowLinkLocal: false,
      limits: { surfacePages: 2, surfaceItems: 2 },
    });
    expect(tools.map((t) => t.nativeName)).toEqual(["lookup"]);
    const resources = surface.find((l) => l.kind === "resource");
    expect(resources).toMatchObject({ status: "truncated", pages: 1, failure: { code: "CATALOG_TOO_LARGE" } });
    expect(resources?.items.map((i) => i.name)).toEqual(["doc-0", "doc-1"]);
    const prompts = surface.find((l) => l.kind === "prompt");
    expect(prompts?.status).toBe("truncated");
    expect(prompts?.items.length).toBe(2);

    const paged = await listMcpCatalog({
      url: server.url,
      headers: {},
      allowLinkLocal: false,
      limits: { surfacePages: 2 },
    });
    expect(paged.surface.find((l) => l.kind === "resource")).toMatchObject({
      status: "truncated",
      pages: 2,
      failure: { code: "CATALOG_TOO_MANY_PAGES", message: expect.stringContaining("2 pages") },
    });
    expect(paged.surface.find((l) => l.kind === "resource")?.items.length).toBe(20);

    const bytes = await listMcpCatalog({
      url: server.url,
      headers: {},
      allowLinkLocal: false,
      limits: { surfaceBytes: 500 },
    });
    const cut = bytes.surface.find((l) => l.kind === "resource");
    expect(cut?.status).toBe("truncated");
    expect(cut?.bytes).toBeLessThanOrEqual(500);
    // The byte bound is shared: nothing is left for the prompts after the resources spent it.
    expect(bytes.surface.find((l) => l.kind === "prompt")?.status).toBe("truncated");
  });
});

describe("prompt names of Sources whose names nest", () => {
  it("give docs' server_status and docs server's status two names, each reaching its own Source", async () => {
    const t = Date.now().toString(36).slice(-6);
    const docs = await serve({
      label: "docs",
      prompts: [{ name: "summarize" }, { name: "server_status" }],
    });
    const docsServer = await serve({ label: "docs-server", prompts: [{ name: "summarize" }, { name: "status" }] });
    const a = await checked(docs.url, `Docs ${t}`);
    const b = await checked(docsServer.url, `Docs ${t} Server`);
    const nameOf = async (api: typeof a.api, id: string, prompt: string) =>
      (await api.sources.surfaceItems({ id, kind: "prompt" })).items.find((p) => p.name === prompt)?.proxied as string;
    const docsSummarize = await nameOf(a.api, a.source.id, "summarize");
    const docsServerStatus = await nameOf(a.api, a.source.id, "server_status");
    const serverSummarize = await nameOf(b.api, b.source.id, "summarize");
    const serverStatus = await nameOf(b.api, b.source.id, "status");
    // Were the second prefix "docs_<t>_server", its status would be docs' server_status.
    const names = [docsSummarize, docsServerStatus, serverSummarize, serverStatus];
    expect(new Set(names).size).toBe(4);
    const prefix = docsSummarize.slice(0, -"_summarize".length);
    expect(serverSummarize.startsWith(`${prefix}_`)).toBe(false);

    const { token } = await agentFor([a.source.id, b.source.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      // Pages come one Source at a time.
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listPrompts(cursor ? { cursor } : {});
        listed.push(...page.prompts.map((p) => String(p.name)));
        cursor = page.nextCursor;
      } while (cursor);
      expect(listed).toEqual(expect.arrayContaining(names));
      expect(new Set(listed).size).toBe(listed.length);
      const answer = async (name: string) => {
        const got = await client.getPrompt({ name, arguments: {} });
        return JSON.stringify(got.messages[0]?.content);
      };
      expect(await answer(docsSummarize)).toBe(JSON.stringify({ type: "text", text: "docs:summarize" }));
      expect(await answer(docsServerStatus)).toBe(JSON.stringify({ type: "text", text: "docs:server_status" }));
      expect(await answer(serverSummarize)).toBe(JSON.stringify({ type: "text", text: "docs-server:summarize" }));
      expect(await answer(serverStatus)).toBe(JSON.stringify({ type: "text", text: "docs-server:status" }));
    } finally {
      await client.close();
    }
  });

  it("resolves prefixes given before they could not nest by the check's record, not the longest prefix", async () => {
    const t = Date.now().toString(36).slice(-6);
    const docs = await serve({ label: "docs", prompts: [{ name: "server_status" }] });
    const docsServer = await serve({ label: "docs-server", prompts: [{ name: "restart" }] });
    const a = await checked(docs.url, `Old docs ${t}`);
    const b = await checked(docsServer.url, `Old docs ${t} server`);
    // As an earlier release allocated them: one prefix the other's start.
    const db = await getDb();
    await db.source.update({ where: { id: a.source.id }, data: { promptPrefix: `old${t}` } });
    await db.source.update({ where: { id: b.source.id }, data: { promptPrefix: `old${t}_server` } });
    const { token } = await agentFor([a.source.id, b.source.id]);
    const client = await connectClient("sdk-1.32", route.url, token);
    try {
      const answer = async (name: string) =>
        JSON.stringify((await client.getPrompt({ name, arguments: {} })).messages[0]?.content);
      // Also "old…_server" + "_status": the longest prefix would ask docs-server for "status".
      expect(await answer(`old${t}_server_status`)).toBe(JSON.stringify({ type: "text", text: "docs:server_status" }));
      expect(await answer(`old${t}_server_restart`)).toBe(
        JSON.stringify({ type: "text", text: "docs-server:restart" }),
      );
    } finally {
      await client.close();
    }
  });
});
