/**
 * /mcp for agents, over real HTTP with the SDK's own Client (and a raw JSON-RPC client):
 * the built-in memory tools, resources, prompts and instructions, under each identity's
 * grants, with errors a model can act on.
 */
import {
  type CallToolResult,
  type Client,
  type ClientOptions,
  ResourceNotFoundError,
} from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { CROSS_TOOL_POLICY } from "@/server/domain/agent-tools/instructions";
import { budgetOf } from "@/server/domain/identities/budget";
import { updateIdentity } from "@/server/domain/identities/identities";
import { runConsolidator } from "@/server/domain/memory/consolidator";
import { LIMITS } from "@/server/limits";
import { builtInTools } from "@/server/mcp/tools/registry";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { makeAgent, makeScope, remember } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();
const _closers = mcp.closers;

async function tokenFor(grants: Record<string, "read" | "write">) {
  const agent = await makeAgent(grants);
  const { createToken } = await import("@/server/domain/identities/tokens");
  const { value } = await createToken(SYSTEM, { identityId: agent.identityId, name: "mcp" });
  return { agent, token: value };
}

async function connect(token: string, options: ClientOptions = {}, fetchVia?: typeof fetch) {
  const client = await mcp.connect(token, "memory-agent", options, { fetch: fetchVia });
  // The SDK checks structured content against each tool's output schema once it has listed them.
  await client.listTools();
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const structured = <T = Record<string, unknown>>(result: unknown) => (result as CallToolResult).structuredContent as T;

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe("/mcp memory tools", () => {
  it("lists every built-in with its schemas and truthful annotations, and calls each with valid and invalid arguments", async () => {
    const scope = await makeScope();
    const { agent, token } = await tokenFor({ [scope.id]: "write" });
    const other = await makeAgent({ [scope.id]: "read" });
    const { getDb } = await import("@/server/db");
    const otherName = (await (await getDb()).agentIdentity.findUniqueOrThrow({ where: { id: other.identityId } })).name;
    const client = await connect(token);

    const { tools } = await client.listTools();
    for (const tool of builtInTools) {
      const listed = tools.find((t) => t.name === tool.name);
      expect(listed, tool.name).toBeDefined();
      expect(listed?.inputSchema.type).toBe("object");
      // call_tool answers with the called Tool's own result, whatever that Tool may reach.
      if (tool.name === "call_tool") {
        expect(listed).not.toHaveProperty("outputSchema");
        expect(listed?.annotations).toMatchObject({ openWorldHint: true });
        continue;
      }
      expect(listed?.outputSchema?.type).toBe("object");
      expect(listed?.annotations).toMatchObject({ openWorldHint: false });
      expect(typeof listed?.annotations?.readOnlyHint).toBe("boolean");
      expect(listed?.inputSchema).not.toHaveProperty("$schema");
    }
    expect(tools.find((t) => t.name === "search")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "threads")?.annotations).toMatchObject({ destructiveHint: true });

    // The only granted scope is the working scope until configure_scope says otherwise.
    const first = await call(client, "remember", {
      body: "# Release train\nWe ship on Tuesdays after the staging soak.",
      kind: "decision",
      tags: ["Release"],
      thread: "releases",
    });
    expect(first.isError).toBeFalsy();
    const firstId = structured<{ id: string }>(first).id;
    expect(firstId).toMatch(/[0-9a-f-]{36}/);
    expect(structured(first)).toMatchObject({ scope: scope.name, kind: "decision", threads: ["releases"] });

    const valid: Record<string, Record<string, unknown>> = {
      configure_scope: { scope: scope.name },
      search: { query: "ship staging", bodyChars: 10 },
      get_memories: { ids: [firstId, "no-such-id"] },
      remember: { body: "The staging soak lasts 24 hours.", occurredAt: "2026-11-30T10:00:00Z" },
      briefing: {},
      debrief: { summary: "Checked the release process.", learned: ["Soak is 24h."], decisions: ["Keep Tuesdays."] },
      handoff: { body: "Please check the soak dashboard.", toIdentity: otherName },
      get_facts: { from: "2026-01-01T00:00:00Z" },
      threads: { action: "pin", name: "releases", memoryIds: [firstId] },
      review_proposals: { action: "list" },
      find_tools: { query: "anything" },
      // A built-in through call_tool answers as that built-in.
      call_tool: { name: "search", arguments: { query: "ship staging" } },
    };
    const invalid: Record<string, [Record<string, unknown>, RegExp]> = {
      configure_scope: [{ scope: 42 }, /^INVALID_ARGUMENTS: scope must be a string, not a number\. /],
      search: [{ query: "x", limit: 500 }, /^INVALID_ARGUMENTS: limit: /],
      get_memories: [{ ids: [] }, /^INVALID_ARGUMENTS: ids: /],
      remember: [{ body: "   " }, /^INVALID_ARGUMENTS: body: /],
      briefing: [{ thread: "" }, /^INVALID_ARGUMENTS: thread: /],
      debrief: [{ learned: ["x"] }, /^INVALID_ARGUMENTS: summary is required\. /],
      handoff: [{ body: "x" }, /^INVALID_ARGUMENTS: toIdentity: name exactly one addressee/],
      get_facts: [{ from: "yesterday" }, /^INVALID_ARGUMENTS: from: /],
      threads: [{ action: "explode", name: "releases" }, /^INVALID_ARGUMENTS: action: /],
      review_proposals: [{ action: "accept" }, /^INVALID_ARGUMENTS: id: required when action is "accept"/],
      find_tools: [{}, /^INVALID_ARGUMENTS: query is required\. /],
      call_tool: [{ arguments: {} }, /^INVALID_ARGUMENTS: name is required\. /],
    };
    expect(Object.keys(valid).sort()).toEqual(builtInTools.map((t) => t.name).sort());
    expect(Object.keys(invalid).sort()).toEqual(builtInTools.map((t) => t.name).sort());
    // Every success matches the output schema the tool lists (checked here, whatever the client does).
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const [name, args] of Object.entries(valid)) {
      const result = await call(client, name, args);
      expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
      const listedAs = name === "call_tool" ? (args.name as string) : name;
      const validate = ajv.compile(tools.find((t) => t.name === listedAs)?.outputSchema ?? {});
      expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      // A text mirror for clients that read only text, beside the structured content.
      expect(text(result).length, name).toBeGreaterThan(0);
      expect(result.structuredContent, name).toBeDefined();
    }
    for (const [name, [args, message]] of Object.entries(invalid)) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(text(result), name).toMatch(message);
    }

    // search: truncated hits with a resource link each.
    const found = await call(client, "search", { query: "Tuesdays staging", bodyChars: 10 });
    const hits = structured<{ hits: { id: string; truncated: boolean; body: string }[] }>(found).hits;
    expect(hits[0]).toMatchObject({ id: firstId, truncated: true });
    expect(hits[0]?.body).toHaveLength(10);
    expect(found.content.filter((c) => c.type === "resource_link").map((c) => (c as { uri: string }).uri)).toContain(
      `qm://memory/${firstId}`,
    );
    const whole = await call(client, "get_memories", { ids: [firstId] });
    expect(structured<{ memories: { body: string }[] }>(whole).memories[0]?.body).toContain("staging soak");
    expect(agent.identityId).toBeTruthy();
  });

  it("refuses a scope without a grant as an isError result, and identity A cannot read identity B's scope", async () => {
    const mine = await makeScope();
    const theirs = await makeScope();
    const a = await tokenFor({ [mine.id]: "read" });
    const b = await tokenFor({ [theirs.id]: "write" });
    const secret = await remember(theirs.id, "B's secret plan");
    const clientA = await connect(a.token);
    const clientB = await connect(b.token);

    for (const [name, args] of [
      ["search", { query: "secret", scope: theirs.name }],
      ["configure_scope", { scope: theirs.name }],
      ["briefing", { scope: theirs.name }],
      ["get_facts", { scope: theirs.name }],
    ] as const) {
      const refused = await call(clientA, name, args);
      expect(refused.isError, name).toBe(true);
      expect(text(refused), name).toMatch(/^SCOPE_ACCESS_DENIED: .*no read grant for scope/);
    }
    // Read grant only: writing is refused, naming the grant it lacks.
    const write = await call(clientA, "remember", { body: "x" });
    expect(text(write)).toMatch(/^SCOPE_ACCESS_DENIED: .*no write grant/);
    // Memories in B's scope are missing to A, by id and as resources.
    expect(structured(await call(clientA, "get_memories", { ids: [secret.id] }))).toMatchObject({
      memories: [],
      missing: [secret.id],
    });
    await expect(clientA.readResource({ uri: `qm://memory/${secret.id}` })).rejects.toThrow(/NOT_FOUND/);
    expect((await clientB.readResource({ uri: `qm://memory/${secret.id}` })).contents[0]).toMatchObject({
      text: "B's secret plan",
    });
  });

  it("says what to do next in each refusal: an unknown Tool points at find_tools, a scope without a grant names the granted ones, a missing argument is required", async () => {
    const mine = await makeScope();
    const theirs = await makeScope();
    const { token } = await tokenFor({ [mine.id]: "read" });
    const client = await connect(token);

    // An unknown Tool: find_tools finds the right one.
    await expect(client.callTool({ name: "does_not_exist", arguments: {} })).rejects.toThrow(
      /No Tool named "does_not_exist" is offered.*Call find_tools/,
    );
    // A scope without a grant, or one that does not exist (the agent may not tell them apart):
    // the scopes it may use instead, and how to pick one; never the other scope's existence.
    for (const scope of [theirs.name, "nope"]) {
      const refused = text(await call(client, "search", { query: "x", scope }));
      expect(refused).toMatch(new RegExp(`^SCOPE_ACCESS_DENIED: .*no read grant for scope "${scope}"`));
      expect(refused).toContain(`Scopes it may read: "${mine.name}" (read)`);
      expect(refused).toMatch(/configure_scope/);
    }
    const write = text(await call(client, "remember", { body: "x", scope: mine.name }));
    expect(write).toMatch(/no write grant.*It holds no write grant for any scope; an operator grants/);
    // A missing argument is required, in those words, with the way to the schema.
    const missing = text(await call(client, "remember", {}));
    expect(missing).toMatch(/^INVALID_ARGUMENTS: body is required\. Correct the arguments and call again/);
    expect(missing).not.toMatch(/Invalid input|received undefined/);
    const wrongType = text(await call(client, "search", { query: 42 }));
    expect(wrongType).toMatch(/^INVALID_ARGUMENTS: query must be a string, not a number\./);
  });

  it("keeps the working scope per token across requests, and says what to do when none is set", async () => {
    const one = await makeScope();
    const two = await makeScope();
    const { token } = await tokenFor({ [one.id]: "write", [two.id]: "write" });
    const client = await connect(token);
    const unset = await call(client, "remember", { body: "where does this go?" });
    expect(text(unset)).toMatch(/^INVALID_ARGUMENTS: scope: no working scope is set\. Call configure_scope/);
    const listed = structured(await call(client, "configure_scope", {}));
    expect(listed).toMatchObject({
      scope: null,
      granted: expect.arrayContaining([{ name: two.name, access: "write" }]),
    });
    await call(client, "configure_scope", { scope: two.name });
    // A fresh connection (another request, no session) with the same token starts there.
    const again = await connect(token);
    const stored = await call(again, "remember", { body: "into two" });
    expect(structured(stored)).toMatchObject({ scope: two.name });
    // A call naming a scope uses it, without changing the working scope.
    expect(structured(await call(again, "remember", { body: "into one", scope: one.name }))).toMatchObject({
      scope: one.name,
    });
    expect(structured(await call(again, "configure_scope", {}))).toMatchObject({ scope: two.name });
  });

  it("returns a handoff in its addressee's next briefing, once; debrief writes every memory in one call", async () => {
    const scope = await makeScope();
    const from = await tokenFor({ [scope.id]: "write" });
    const to = await tokenFor({ [scope.id]: "read" });
    const { getDb } = await import("@/server/db");
    const toName = (await (await getDb()).agentIdentity.findUniqueOrThrow({ where: { id: to.agent.identityId } })).name;
    const sender = await connect(from.token);
    const receiver = await connect(to.token);

    const left = await call(sender, "handoff", { body: "Finish the migration runbook.", toIdentity: toName });
    expect(left.isError).toBeFalsy();
    const toThread = await call(sender, "handoff", { body: "Anyone on ops: rotate the keys.", toThread: "ops" });
    expect(structured(toThread)).toMatchObject({ to: { thread: "ops" } });
    const nobody = await call(sender, "handoff", { body: "x", toIdentity: "no-such-identity" });
    expect(text(nobody)).toMatch(/^INVALID_ARGUMENTS: toIdentity: no Agent Identity named/);

    const briefed = structured<{ handoffs: { id: string; body: string }[] }>(await call(receiver, "briefing", {}));
    expect(briefed.handoffs.map((h) => h.body)).toEqual(["Finish the migration runbook."]);
    const twice = structured<{ handoffs: unknown[] }>(await call(receiver, "briefing", {}));
    expect(twice.handoffs).toEqual([]);
    const onThread = structured<{ handoffs: { body: string }[] }>(await call(receiver, "briefing", { thread: "ops" }));
    expect(onThread.handoffs.map((h) => h.body)).toEqual(["Anyone on ops: rotate the keys."]);
    // The sender is not the addressee: its briefing holds none of them.
    expect(structured<{ handoffs: unknown[] }>(await call(sender, "briefing", {})).handoffs).toEqual([]);

    const debriefed = await call(sender, "debrief", {
      summary: "Wrote the runbook draft.",
      learned: ["The old runbook missed the DNS step.", "Staging has no DNS."],
      decisions: ["Use the new runbook."],
      thread: "ops",
    });
    const ids = structured<{ summaryId: string; learnedIds: string[]; decisionIds: string[] }>(debriefed);
    expect(ids.learnedIds).toHaveLength(2);
    expect(ids.decisionIds).toHaveLength(1);
    const read = structured<{ memories: { kind: string }[] }>(
      await call(sender, "get_memories", { ids: [ids.summaryId, ...ids.learnedIds, ...ids.decisionIds] }),
    );
    expect(read.memories.map((m) => m.kind)).toEqual(["debrief", "note", "note", "decision"]);
    const brief = structured<{ decisions: { id: string }[]; openThreads: { name: string }[] }>(
      await call(sender, "briefing", {}),
    );
    expect(brief.decisions.map((d) => d.id)).toContain(ids.decisionIds[0]);
    expect(brief.openThreads.map((t) => t.name)).toContain("ops");
  });

  it("refuses MEMORY_TOO_LARGE and PROPOSAL_STALE as isError results; threads curate by name; facts read in time", async () => {
    const scope = await makeScope();
    const { token } = await tokenFor({ [scope.id]: "write" });
    const client = await connect(token);
    const big = await call(client, "remember", { body: "x".repeat(LIMITS.MEMORY_BODY_BYTES.value + 1) });
    expect(big.isError).toBe(true);
    expect(text(big)).toMatch(/^MEMORY_TOO_LARGE: body: 65,537 bytes/);

    const a = await remember(scope.id, "The build server is ci-7 in rack B.");
    await remember(scope.id, "The build server is ci-7 in rack B.");
    await runConsolidator(SYSTEM, { scopeId: scope.id });
    const pending = structured<{ proposals: { id: string }[]; total: number }>(
      await call(client, "review_proposals", { action: "list" }),
    );
    expect(pending.total).toBeGreaterThan(0);
    // The memories change under the proposal: accepting it is refused as stale.
    await call(client, "remember", { body: "The build server moved to rack C.", supersedes: a.id });
    const stale = await call(client, "review_proposals", { action: "accept", id: pending.proposals[0]?.id });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/^PROPOSAL_STALE: /);

    for (const args of [
      { action: "create", name: "infra" },
      { action: "add", name: "infra", memoryIds: [a.id] },
      { action: "rename", name: "infra", newName: "infrastructure" },
      { action: "unpin", name: "infrastructure", memoryIds: [a.id] },
      { action: "remove", name: "infrastructure", memoryIds: [a.id] },
      { action: "archive", name: "infrastructure" },
      { action: "delete", name: "infrastructure" },
    ]) {
      const result = await call(client, "threads", args);
      expect(result.isError, `${args.action}: ${text(result)}`).toBeFalsy();
    }
    expect(text(await call(client, "threads", { action: "rename", name: "nope", newName: "x" }))).toMatch(
      /^NOT_FOUND: thread: scope .* has no thread named "nope"/,
    );
    expect((await call(client, "threads", { action: "create", name: "dup" })).isError).toBeFalsy();
    expect(text(await call(client, "threads", { action: "create", name: "dup" }))).toMatch(/^CONFLICT: /);

    await remember(scope.id, "Price update", {
      occurredAt: new Date("2026-03-01T00:00:00Z"),
      facts: [{ subject: "plan", predicate: "price", value: "10", validFrom: "2026-03-01T00:00:00Z" }],
    });
    await remember(scope.id, "Price update", {
      occurredAt: new Date("2026-06-01T00:00:00Z"),
      facts: [{ subject: "plan", predicate: "price", value: "12", validFrom: "2026-06-01T00:00:00Z" }],
    });
    const now = structured<{ facts: { value: string }[] }>(await call(client, "get_facts", { subject: "plan" }));
    expect(now.facts.map((f) => f.value)).toEqual(["12"]);
    const history = structured<{ facts: { value: string }[] }>(
      await call(client, "get_facts", { subject: "plan", from: "2026-01-01T00:00:00Z", to: "2026-12-01T00:00:00Z" }),
    );
    expect(history.facts.map((f) => f.value)).toEqual(["10", "12"]);
  });
});

describe("/mcp resources, prompts and instructions", () => {
  it("reads both resource templates, lists no memories, and fetches every prompt", async () => {
    const scope = await makeScope();
    const { token } = await tokenFor({ [scope.id]: "write" });
    const client = await connect(token);
    const made = structured<{ id: string }>(
      await call(client, "remember", { body: "# Pinned\nKeep the runbook current.", thread: "runbooks" }),
    );

    expect((await client.listResources()).resources).toEqual([]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["qm://memory/{id}", "qm://thread/{name}"]);
    expect(resourceTemplates[0]?._meta).toMatchObject({ "quartermaster/cache": { immutable: true } });

    const memory = await client.readResource({ uri: `qm://memory/${made.id}` });
    expect(memory.contents[0]).toMatchObject({
      mimeType: "text/markdown",
      text: "# Pinned\nKeep the runbook current.",
    });
    const thread = await client.readResource({ uri: "qm://thread/runbooks" });
    const index = JSON.parse((thread.contents[0] as { text: string }).text);
    expect(index).toMatchObject({ scope: scope.name, thread: "runbooks", memberCount: 1 });
    expect(index.members[0]).toMatchObject({ id: made.id, uri: `qm://memory/${made.id}` });
    await expect(client.readResource({ uri: "qm://thread/missing" })).rejects.toThrow(/NOT_FOUND/);
    await expect(client.readResource({ uri: "https://example.com/x" })).rejects.toThrow(/NOT_FOUND/);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["briefing", "debrief", "review_proposals"]);
    for (const prompt of prompts) {
      const got = await client.getPrompt({ name: prompt.name, arguments: { scope: scope.name } });
      const body = (got.messages[0]!.content as { text: string }).text;
      expect(body).toContain(prompt.name === "review_proposals" ? "review_proposals" : prompt.name);
      expect(body).toContain(scope.name);
    }
    await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/no prompt is named "nope"/);
  });

  it("answers a resource that is not there to read as resource not found, in each revision's own code", async () => {
    const mine = await makeScope();
    const theirs = await makeScope();
    const { token } = await tokenFor({ [mine.id]: "read" });
    const hidden = await remember(theirs.id, "Another scope's memory.");
    const gone = await remember(mine.id, "A memory about to be erased.");
    const { eraseMemory } = await import("@/server/domain/memory/erase");
    await eraseMemory(SYSTEM, { id: gone.id, reason: "test" });
    // What went over the wire, as the SDK client maps both codes to one error class.
    const wire: { status: number; body: string }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      wire.push({ status: response.status, body: await response.clone().text() });
      return response;
    };
    const uris = [
      "qm://memory/no-such-memory",
      `qm://memory/${hidden.id}`,
      "qm://thread/no-such-thread",
      "qm://memory/",
      "qm://memory/%2e%2e%2fx",
      `qm://memory/${"x".repeat(5000)}`,
      "https://example.com/x",
      "not a uri",
    ];
    // 2025-06-18 and 2025-11-25 name -32002 for it; 2026-07-28 made it -32602 (Invalid Params).
    for (const [options, code] of [
      [{ supportedProtocolVersions: ["2025-06-18"] }, -32002],
      [{}, -32002],
      [{ versionNegotiation: { mode: { pin: "2026-07-28" } } }, -32602],
    ] as [ClientOptions, number][]) {
      const client = await connect(token, options, recording);
      const revision = client.getNegotiatedProtocolVersion();
      for (const uri of uris) {
        wire.length = 0;
        const error = await client.readResource({ uri }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, `${revision} ${uri}`).toBeInstanceOf(ResourceNotFoundError);
        const answer = JSON.parse(wire.at(-1)?.body ?? "{}") as {
          error?: { code: number; message: string; data?: unknown };
        };
        expect(answer.error, `${revision} ${uri}`).toMatchObject({
          code,
          message: expect.stringMatching(/^NOT_FOUND: /),
          // Exactly { uri }: the shape clients tell a miss from other invalid params by.
          data: { uri },
        });
        expect(Object.keys(answer.error?.data ?? {})).toEqual(["uri"]);
        expect(wire.at(-1)?.status).toBe(200);
        // A hidden memory reads exactly as a missing one: the message names no scope.
        expect(answer.error?.message).not.toContain(theirs.name);
      }
      // The erased memory is still there to read (its tombstone), so it is no miss.
      expect((await client.readResource({ uri: `qm://memory/${gone.id}` })).contents[0]).toMatchObject({
        text: expect.stringMatching(/^This memory was erased/),
      });
      // Other refusals keep their own codes: an unknown prompt is still invalid params.
      await expect(client.getPrompt({ name: "no-such-prompt" }), revision).rejects.toMatchObject({ code: -32602 });
    }
  });

  it("sends the cross-tool policy and the identity's own instructions at initialization, counted byte for byte", async () => {
    const { agent, token } = await tokenFor({});
    const own = "Answer in French. Never delete a thread: ask a curator. 🇫🇷";
    await updateIdentity(SYSTEM, { id: agent.identityId, instructions: own });
    const client = await connect(token);
    const instructions = client.getInstructions() ?? "";
    expect(instructions.startsWith(CROSS_TOOL_POLICY)).toBe(true);
    expect(instructions.endsWith(`\n\n${own}`)).toBe(true);
    const budget = await budgetOf(agent.identityId);
    expect(budget?.instructionsBytes).toBe(Buffer.byteLength(own));
  });
});

/** The JSON-RPC message of a response, sent as JSON or as one Server-Sent Event. */
async function answerOf(res: Response): Promise<unknown> {
  const body = await res.text();
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) return JSON.parse(body);
  const data = body
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).trim());
  return JSON.parse(data.at(-1) ?? "null");
}

describe("/mcp over raw JSON-RPC", () => {
  const post = (token: string, body: string, headers: Record<string, string> = {}) =>
    fetch(mcp.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
    });

  it("serves a 2025-06-18 client with plain fetch, and answers a malformed body with a JSON-RPC error, never a 500", async () => {
    const scope = await makeScope();
    const { token } = await tokenFor({ [scope.id]: "write" });
    const v = { "mcp-protocol-version": "2025-06-18" };
    const rpc = async (id: number, method: string, params?: unknown) => {
      const res = await post(token, JSON.stringify({ jsonrpc: "2.0", id, method, params }), v);
      expect(res.status).toBe(200);
      return (await answerOf(res)) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const init = await rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(init.result).toMatchObject({
      protocolVersion: "2025-06-18",
      capabilities: { tools: {}, resources: {}, prompts: {} },
    });
    expect(init.result?.instructions).toContain("Search before writing");
    const listed = await rpc(2, "tools/list");
    expect((listed.result!.tools as { name: string }[]).map((t) => t.name)).toContain("remember");
    const stored = await rpc(3, "tools/call", { name: "remember", arguments: { body: "raw client was here" } });
    const id = (stored.result!.structuredContent as { id: string }).id;
    const found = await rpc(4, "tools/call", { name: "search", arguments: { query: "raw client" } });
    expect((found.result!.structuredContent as { hits: { id: string }[] }).hits[0]?.id).toBe(id);
    const bad = await rpc(5, "tools/call", { name: "search", arguments: { limit: "ten" } });
    expect(bad.result).toMatchObject({ isError: true });
    expect((await rpc(6, "ping")).result).toEqual({});

    for (const body of ["{not json", '{"jsonrpc":"2.0","id":7}', "[]", '"just a string"']) {
      const res = await post(token, body, v);
      expect(res.status, body).toBeLessThan(500);
      const answer = (await answerOf(res)) as { error?: { code: number } };
      expect(answer.error?.code, body).toBeLessThan(0);
    }
  });
});
