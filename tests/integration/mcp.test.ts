import type { CallToolResult, ClientOptions } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { authenticateToolHost, registerTools } from "@/server/domain/sources/tool-hosts";
import { handleCallResults, handleCollectCalls } from "@/server/http/tool-host-api";
import { LIMITS } from "@/server/limits";
import { builtInTools } from "@/server/mcp/tools/registry";
import { fmtBytes } from "@/universal/format";
import { connectionTo, operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith, toolsOfModelBytes } from "../helpers/hosts";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { type RunningServer, simpleTool, startSdkServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

type OnCall = (name: string, args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
async function source(tools: ToolDef[], onCall: OnCall, name?: string) {
  const server: RunningServer = await startSdkServer({ catalog: () => tools, onCall });
  closers.push(server.close);
  const { api, source } = await connectionTo(server.url, { name });
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return { api, source, server };
}

function connect(token: string, options?: ClientOptions) {
  return mcp.connect(token, "test-agent", options);
}

const echo: OnCall = (name, args) => ({ content: [{ type: "text", text: `${name}:${JSON.stringify(args)}` }] });
const BUILT_INS = builtInTools.length;
const texts = (result: unknown) => ((result as CallToolResult).content as { text: string }[]).map((c) => c.text);

describe("/mcp", () => {
  it("offers an agent its identity's Compatible Tools under their model-facing names and runs each call on its own Source", async () => {
    const a = await source(
      [simpleTool("lookup"), simpleTool("bad", { inputSchema: { type: "object", properties: { __x: {} } } })],
      echo,
    );
    // A second Source publishing the same native name: its Tool gets another model-facing name.
    const b = await source([simpleTool("lookup")], (name, args) => ({
      content: [{ type: "text", text: `from b: ${name} ${JSON.stringify(args)}` }],
    }));
    const { token } = await agentFor([a.source.id, b.source.id]);
    const client = await connect(token);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    // The built-in tools lead, then the catalog.
    expect(names.slice(0, BUILT_INS)).toEqual(builtInTools.map((t) => t.name));
    expect(names).toHaveLength(BUILT_INS + 2);
    expect(names).toContain("lookup");
    const other = names.slice(BUILT_INS).find((n) => n !== "lookup") as string;
    expect(other).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).not.toContain("bad"); // Schema unsupported: never offered
    expect(tools.find((t) => t.name === "lookup")).toMatchObject({
      description: "Does lookup.",
      inputSchema: simpleTool("lookup").inputSchema,
    });

    expect(texts(await client.callTool({ name: "lookup", arguments: { query: "q1" } }))).toEqual([
      'lookup:{"query":"q1"}',
    ]);
    // The Source is called under its own native name, whatever name the agent used.
    expect(texts(await client.callTool({ name: other, arguments: { query: "q2" } }))).toEqual([
      'from b: lookup {"query":"q2"}',
    ]);
  });

  it("answers clients of 2026-07-28, 2025-11-25 and 2025-06-18 from the one stateless endpoint", async () => {
    const a = await source([simpleTool("lookup_rev")], echo);
    const { token } = await agentFor([a.source.id]);
    const clients: [ClientOptions, string][] = [
      [{ versionNegotiation: { mode: { pin: "2026-07-28" } } }, "2026-07-28"],
      [{ versionNegotiation: { mode: "auto" } }, "2026-07-28"],
      [{}, "2025-11-25"],
      [{ supportedProtocolVersions: ["2025-06-18"] }, "2025-06-18"],
    ];
    for (const [options, revision] of clients) {
      const client = await connect(token, options);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual([...builtInTools.map((t) => t.name), "lookup_rev"]);
      // The cross-tool policy reaches the agent whatever the revision.
      expect(client.getInstructions(), revision).toContain("Search before writing");
      expect(texts(await client.callTool({ name: "lookup_rev", arguments: { query: revision } }))).toEqual([
        `lookup_rev:{"query":"${revision}"}`,
      ]);
      // Refusals keep their code whatever the revision.
      await expect(client.callTool({ name: "nowhere", arguments: {} })).rejects.toThrow(/NOT_FOUND|No Tool named/);
    }
  });

  it("find_tools searches only the agent's own Tools, by name and description, with the exact names to call", async () => {
    const held = await source(
      [
        simpleTool("create_invoice", { description: "Create a draft invoice for a customer." }),
        simpleTool("void_invoice", { description: "Void an invoice that was sent by mistake." }),
        simpleTool("list_orders", { description: "List a customer's orders." }),
      ],
      echo,
    );
    const notHeld = await source([simpleTool("invoice_elsewhere")], echo);
    expect(notHeld.source.id).not.toBe(held.source.id);
    const { token } = await agentFor([held.source.id]);
    const client = await connect(token);

    const found = await client.callTool({ name: "find_tools", arguments: { query: "invoice" } });
    expect(found.isError).toBeFalsy();
    const structured = found.structuredContent as { total: number; tools: { name: string; source: string }[] };
    expect(structured.total).toBe(2);
    expect(structured.tools.map((t) => t.name).sort()).toEqual(["create_invoice", "void_invoice"]);
    expect(texts(found)[0]).toContain("create_invoice");
    const byDescription = await client.callTool({ name: "find_tools", arguments: { query: "customer orders" } });
    expect((byDescription.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual([
      "list_orders",
    ]);
    const empty = await client.callTool({ name: "find_tools", arguments: { query: "" } });
    expect(empty.isError).toBe(true);
    expect(texts(empty)[0]).toMatch(/^INVALID_ARGUMENTS: query: /);
  });

  it("find_tools returns each match ready to call: its name, description and input schema, for a whole user request as the query", async () => {
    const schema = {
      type: "object",
      properties: {
        customer: { type: "string", description: "Customer id" },
        amountCents: { type: "integer", minimum: 1 },
      },
      required: ["customer", "amountCents"],
    };
    const held = await source(
      [
        simpleTool("bill_customer", { description: "Create a draft invoice for a customer.", inputSchema: schema }),
        simpleTool("list_customer_orders", { description: "List a customer's orders." }),
      ],
      echo,
    );
    const { token } = await agentFor([held.source.id]);
    const client = await connect(token);
    const listed = (await client.listTools()).tools.find((t) => t.name === "bill_customer");

    // What an agent sends: the user's whole request, far past two keywords.
    const request = `${"Our customer Acme called about last month. ".repeat(24)}Please create an invoice for them.`;
    expect(request.length).toBeGreaterThan(1000);
    const found = await client.callTool({ name: "find_tools", arguments: { query: request, limit: 1 } });
    expect(found.isError, texts(found)[0]).toBeFalsy();
    const [best] = (found.structuredContent as { tools: Record<string, unknown>[] }).tools;
    expect(best).toEqual({
      name: "bill_customer",
      description: "Create a draft invoice for a customer.",
      source: held.source.name,
      inputSchema: listed?.inputSchema,
    });
    expect(best?.inputSchema).toEqual(schema);
    // Clients that hand the model only text still give it the schema.
    expect(texts(found)[0]).toContain(`input: ${JSON.stringify(best?.inputSchema)}`);
    // The mirror does not repeat a long request back.
    expect(texts(found)[0]?.length).toBeLessThan(600);

    const tooLong = await client.callTool({
      name: "find_tools",
      arguments: { query: "x".repeat(LIMITS.FIND_TOOLS_QUERY_CHARS.value + 1) },
    });
    expect(tooLong.isError).toBe(true);
    expect(texts(tooLong)[0]).toMatch(/^INVALID_ARGUMENTS: query: at most 2000 characters \(FIND_TOOLS_QUERY_CHARS\)/);
  });

  it("refuses a missing or revoked token, a browser page from another origin, and session requests", async () => {
    const none = await fetch(mcp.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await none.json()).error.data.code).toBe("UNAUTHENTICATED");

    const a = await source([simpleTool("t")], echo);
    const { api, identity, token } = await agentFor([a.source.id]);
    const crossSite = await fetch(mcp.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        origin: "https://evil.example",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(crossSite.status).toBe(403);
    expect((await fetch(mcp.url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);

    // Used first, so this instance has the token cached: revoking it must still take effect at once.
    await (await connect(token)).listTools();
    const [listed] = await api.identities.tokens({ id: identity.id });
    await api.identities.revokeToken({ id: listed!.id });
    await expect(connect(token)).rejects.toThrow(/401|UNAUTHENTICATED/);

    // So must deleting the identity.
    const other = await agentFor([a.source.id]);
    await (await connect(other.token)).listTools();
    await other.api.identities.delete({ id: other.identity.id });
    await expect(connect(other.token)).rejects.toThrow(/401|UNAUTHENTICATED/);
  });

  it("answers an Over budget identity with IDENTITY_OVER_BUDGET, naming the state, instead of offering it anything", async () => {
    const base = await hostWith(toolsOfModelBytes(600, 4000, "base"));
    const growing = await hostWith(toolsOfModelBytes(100, 4000, "grow"));
    const { api, identity, token } = await agentFor([base.source.id, growing.source.id]);
    // Every held Tool listed (the default, auto, would list a selection of these 2.4 MB).
    await api.identities.update({ id: identity.id, exposure: "all" });
    const client = await connect(token);
    // One page: the SDK's listTools() without a cursor would read every page.
    const first = await client.request({ method: "tools/list", params: {} });
    expect(first.tools.length).toBe(BUILT_INS + 500); // the built-ins and a first page of 500
    await growing.register(toolsOfModelBytes(450, 4000, "grow"));

    const refusal = client.listTools();
    await expect(refusal).rejects.toThrow(/IDENTITY_OVER_BUDGET/);
    await expect(refusal).rejects.toThrow(/Over budget/);
    await expect(client.callTool({ name: "find_tools", arguments: { query: "grow" } })).rejects.toThrow(
      /IDENTITY_OVER_BUDGET/,
    );
  });

  it("pages through every Tool an identity holds", async () => {
    const host = await hostWith(toolsOfModelBytes(1200, 300, "paged"));
    const { api, identity, token } = await agentFor([host.source.id]);
    await api.identities.update({ id: identity.id, exposure: "all" });
    const client = await connect(token);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(1200 + BUILT_INS);
    expect(new Set(names).size).toBe(1200 + BUILT_INS);
  });

  it("enforces the Tool Call limits: arguments before the call, the result after it, each with the limit in the reason", async () => {
    const chars = LIMITS.TOOL_RESULT_TEXT_BLOCK_CHARS.value;
    const blocks = LIMITS.TOOL_RESULT_TEXT_BLOCKS.value;
    const calls: string[] = [];
    const answers: Record<string, () => CallToolResult> = {
      blocks_ok: () => ({ content: Array.from({ length: blocks }, () => ({ type: "text", text: "x" })) }),
      blocks_over: () => ({ content: Array.from({ length: blocks + 1 }, () => ({ type: "text", text: "x" })) }),
      // Exactly the most characters: an emoji is one character but two UTF-16 units, so this
      // text is longer than the limit in JavaScript's own count, and still accepted.
      text_ok: () => ({ content: [{ type: "text", text: "😀".repeat(1000) + "x".repeat(chars - 1000) }] }),
      text_over: () => ({ content: [{ type: "text", text: "x".repeat(chars + 1) }] }),
      too_large: () => ({ content: [1, 2, 3].map(() => ({ type: "text", text: "x".repeat(chars) })) }),
    };
    const a = await source(
      Object.keys(answers).map((name) => simpleTool(name)),
      (name) => {
        calls.push(name);
        return (answers[name] as () => CallToolResult)();
      },
    );
    const { token } = await agentFor([a.source.id]);
    const client = await connect(token);

    const many = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`a${i}`, i]));
    const tooMany = await client.callTool({ name: "blocks_ok", arguments: many });
    expect(tooMany.isError).toBe(true);
    expect(texts(tooMany)[0]).toMatch(/^INVALID_ARGUMENTS: arguments: 257 top-level.*at most 256/);
    expect(calls).toEqual([]); // refused before anything reached the Source

    expect((await client.callTool({ name: "blocks_ok", arguments: { query: "q" } })).isError).toBeFalsy();
    const text = await client.callTool({ name: "text_ok", arguments: { query: "q" } });
    expect(text.isError).toBeFalsy();
    expect(texts(text)[0]?.length).toBe(chars + 1000);

    for (const [name, code, limit] of [
      ["blocks_over", "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS", blocks],
      ["text_over", "TOOL_RESULT_TEXT_TOO_LONG", chars],
      ["too_large", "TOOL_RESULT_TOO_LARGE", LIMITS.TOOL_RESULT_BYTES.value],
    ] as const) {
      const refused = await client.callTool({ name, arguments: { query: "q" } });
      expect(refused.isError).toBe(true);
      expect(texts(refused)[0]).toMatch(new RegExp(`^${code}: `));
      expect(refused.structuredContent).toMatchObject({ error: { code, limit } });
    }
  });

  it("turns a Source that cannot answer into a Tool Result the model can read, and refuses Tools the identity does not hold", async () => {
    const a = await source([simpleTool("flaky")], echo);
    const other = await source([simpleTool("elsewhere")], echo);
    const { token } = await agentFor([a.source.id]);
    const client = await connect(token);
    await a.server.close();
    const down = await client.callTool({ name: "flaky", arguments: { query: "q" } });
    expect(down.isError).toBe(true);
    expect(texts(down)[0]).toMatch(/^SOURCE_UNREACHABLE: /);

    expect(other.source.id).toBeTruthy();
    await expect(client.callTool({ name: "elsewhere", arguments: { query: "q" } })).rejects.toThrow(
      /No Tool named "elsewhere"/,
    );
  });

  it("never gives a catalog Tool a built-in tool's name, so a Source's own search cannot shadow or be shadowed", async () => {
    const a = await source([simpleTool("search"), simpleTool("find_tools")], echo, "Docs server");
    const { token } = await agentFor([a.source.id]);
    const client = await connect(token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    // Each built-in name appears once: the built-in's.
    expect(names.filter((n) => n === "find_tools")).toHaveLength(1);
    expect(names.filter((n) => n === "search")).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(["docs_server_search", "docs_server_find_tools"]));
    expect(texts(await client.callTool({ name: "docs_server_search", arguments: { query: "q" } }))).toEqual([
      'search:{"query":"q"}',
    ]);
  });
});

/** An SDK Tool Host that collects its calls and answers them over the Tool Host API. */
let k = 0;
async function callableHost(tools: ToolDef[]) {
  const api = await operator();
  const { source, hostToken } = await api.sources.createToolHost({ name: `callable-${++k}-${Date.now()}` });
  await registerTools((await authenticateToolHost(hostToken))!, { tools });
  const post = (path: string, body?: string) =>
    new Request(`http://127.0.0.1:3000/api/v1/tool-hosts/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body,
    });
  return {
    source,
    async collect(wait = 5) {
      const res = await handleCollectCalls(post(`calls/next?wait=${wait}`));
      expect(res.status).toBe(200);
      return (await res.json()).calls as { id: string; tool: string; arguments: Record<string, unknown> }[];
    },
    async submit(results: unknown[] | string) {
      const res = await handleCallResults(
        post("calls/results", typeof results === "string" ? results : JSON.stringify({ results })),
      );
      return { status: res.status, body: await res.json() };
    },
  };
}

describe("/mcp calls to SDK Tool Host Tools", () => {
  it("wait for the host to collect them and return its output; collecting counts as a heartbeat", async () => {
    const host = await callableHost([simpleTool("render_report")]);
    const { token } = await agentFor([host.source.id]);
    const client = await connect(token);
    const db = await getDb();
    const before = (await db.source.findUniqueOrThrow({ where: { id: host.source.id } })).lastHeartbeatAt;

    const answer = client.callTool({ name: "render_report", arguments: { query: "Q3" } });
    const [call] = await host.collect();
    expect(call).toMatchObject({ tool: "render_report", arguments: { query: "Q3" } });
    const after = (await db.source.findUniqueOrThrow({ where: { id: host.source.id } })).lastHeartbeatAt;
    expect(after!.getTime()).toBeGreaterThan(before!.getTime());
    expect(await host.submit([{ id: call!.id, output: "Report for Q3: 12 pages." }])).toEqual({
      status: 200,
      body: { delivered: [call!.id], refused: [], unknown: [] },
    });
    expect(texts(await answer)).toEqual(["Report for Q3: 12 pages."]);
    // Nothing is kept once the caller has its result.
    expect(await db.toolCall.count({ where: { sourceId: host.source.id } })).toBe(0);

    const failing = client.callTool({ name: "render_report", arguments: { query: "Q4" } });
    const [second] = await host.collect();
    await host.submit([{ id: second!.id, error: "The reporting database is down." }]);
    const failed = await failing;
    expect(failed.isError).toBe(true);
    expect(texts(failed)).toEqual(["The reporting database is down."]);

    // A result for a call that is not waiting (answered already, or never made) is reported, not applied.
    expect((await host.submit([{ id: call!.id, output: "late" }])).body.unknown).toEqual([call!.id]);
  });

  it("turn an output over 1,048,576 characters or with a NUL into a failure of that call, and deliver the others", async () => {
    const host = await callableHost([simpleTool("a"), simpleTool("b"), simpleTool("c")]);
    const { token } = await agentFor([host.source.id]);
    const client = await connect(token);
    const answers = ["a", "b", "c"].map((name) => client.callTool({ name, arguments: { query: name } }));
    const calls: { id: string; tool: string }[] = [];
    while (calls.length < 3) calls.push(...(await host.collect()));
    const id = (tool: string) => calls.find((c) => c.tool === tool)?.id as string;
    const chars = LIMITS.SDK_RESULT_OUTPUT_CHARS.value;
    const submitted = await host.submit([
      { id: id("a"), output: "x".repeat(chars + 1) },
      { id: id("b"), error: "bad\u0000byte" },
      { id: id("c"), output: "x".repeat(chars) },
    ]);
    expect(submitted.status).toBe(200);
    expect(submitted.body.delivered).toEqual([id("c")]);
    expect(submitted.body.refused).toEqual([
      expect.objectContaining({ id: id("a"), code: "TOOL_RESULT_TEXT_TOO_LONG" }),
      expect.objectContaining({ id: id("b"), code: "TOOL_RESULT_NUL" }),
    ]);
    const [a, b, c] = await Promise.all(answers);
    expect(texts(a)[0]).toMatch(/^TOOL_RESULT_TEXT_TOO_LONG: .*1,048,577 characters.*at most 1,048,576/);
    expect(b!.isError).toBe(true);
    expect(texts(b)[0]).toMatch(/^TOOL_RESULT_NUL: /);
    expect(c!.isError).toBeFalsy();
    expect(texts(c)[0]).toHaveLength(chars);
  });

  it("refuse a result submission over 4 MiB with 413 and apply none of it", async () => {
    const host = await callableHost([simpleTool("big")]);
    const { token } = await agentFor([host.source.id]);
    const client = await connect(token);
    const answer = client.callTool({ name: "big", arguments: { query: "q" } });
    const [call] = await host.collect();
    const limit = LIMITS.SDK_RESULT_SUBMISSION_BYTES.value;
    const frame = JSON.stringify({ results: [{ id: call!.id, output: "" }] });
    const tooLarge = await host.submit(
      JSON.stringify({ results: [{ id: call!.id, output: "y".repeat(limit + 1 - frame.length) }] }),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe("REQUEST_BODY_TOO_LARGE");
    expect(tooLarge.body.message).toContain(`a result submission may be at most ${fmtBytes(limit)}`);
    expect(await host.submit([{ id: call!.id, output: "small" }])).toMatchObject({
      body: { delivered: [call!.id] },
    });
    expect(texts(await answer)).toEqual(["small"]);
  });

  it("hand each call to one collection only, however many host processes ask", async () => {
    const host = await callableHost([simpleTool("once")]);
    const { token } = await agentFor([host.source.id]);
    const client = await connect(token);
    const answer = client.callTool({ name: "once", arguments: { query: "q" } });
    const collections = await Promise.all([host.collect(2), host.collect(2), host.collect(2)]);
    const handed = collections.flat();
    expect(handed).toHaveLength(1);
    await host.submit([{ id: handed[0]!.id, output: "ok" }]);
    expect(texts(await answer)).toEqual(["ok"]);
  });
});
