/**
 * `confirm` call policies at /mcp with the SDK's own clients over real HTTP, against a real
 * SDK Source on loopback: a 2026-07-28 client is asked through an InputRequiredResult and
 * the Source sees exactly one call once its user accepts; a declined, tampered, replayed,
 * re-targeted, expired or foreign confirmation reaches nothing; clients that cannot ask
 * their user get CONFIRMATION_UNAVAILABLE.
 */
import {
  type CallToolResult,
  Client,
  type ClientOptions,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Client as Client132 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport132 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { LIMITS } from "@/server/limits";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { connectionTo, type operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { serveHandler } from "../helpers/web-handler";

withTestDatabase();
const closers: (() => Promise<void>)[] = [];
let mcpUrl = "";
const calls: { name: string; args: Record<string, unknown> }[] = [];
let sourceId = "";
let api: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  const served = await serveHandler({ POST: handleMcpPost, GET: handleMcpOther }, "/mcp");
  mcpUrl = served.url;
  closers.push(served.close);
  const server = await startSdkServer({
    catalog: () => [
      simpleTool("delete_invoice"),
      simpleTool("read_invoice"),
      simpleTool("wipe_ledger", { annotations: { destructiveHint: true } }),
      simpleTool("wipe_cache", { annotations: { destructiveHint: true } }),
    ],
    onCall: (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: "text", text: `done ${name}` }] };
    },
  });
  closers.push(server.close);
  const connection = await connectionTo(server.url, { name: `billing-${Date.now()}` });
  api = connection.api;
  sourceId = connection.source.id;
  expect((await api.sources.checkNow({ id: sourceId })).status).toBe("succeeded");
  const db = await getDb();
  const tool = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName: "delete_invoice" } });
  expect(await api.catalog.setCallPolicy({ toolId: tool.id, policy: "confirm" })).toMatchObject({
    policy: "confirm",
    reason: expect.stringContaining("set on this Tool"),
  });
  expect((await api.catalog.getTool({ id: tool.id })).callPolicy).toMatchObject({ own: "confirm", policy: "confirm" });
  expect(await db.auditEvent.count({ where: { action: "tool.call_policy", targetId: tool.id } })).toBe(1);
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

let k = 0;
const identityOfToken = new Map<string, string>();
async function tokenFor() {
  const identity = await api.identities.create({ name: `confirm-agent-${++k}-${Date.now()}` });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value } = await api.identities.createToken({ identityId: identity.id, name: "t" });
  identityOfToken.set(value, identity.id);
  return value;
}

/** The identity's delete_invoice rows in the call log, oldest first: what each round ended as. */
async function logged(token: string) {
  await flushCallLog();
  const db = await getDb();
  const rows = await db.callLog.findMany({
    where: { identityId: identityOfToken.get(token), toolName: "delete_invoice" },
    orderBy: { startedAt: "asc" },
    select: { outcome: true, failureCode: true },
  });
  return rows.map((r) => r.failureCode ?? r.outcome);
}

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> };
const asked: { message: string }[] = [];

/** A 2026-07-28 v2 client whose "user" answers every elicitation with `answer`. */
async function modernClient(token: string, answer?: Answer, options: ClientOptions = {}) {
  const client = new Client(
    { name: "confirm-test", version: "1" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...options,
    },
  );
  if (answer)
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push({ message: (request.params as { message: string }).message });
      return answer;
    });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  closers.push(() => client.close());
  return client;
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const code = (r: unknown) => ((r as CallToolResult).structuredContent as { error?: { code: string } })?.error?.code;
const deletes = () => calls.filter((c) => c.name === "delete_invoice").length;

describe("a Tool under confirm", () => {
  it("runs exactly once after the user accepts in their client, having been shown the Tool, Source and arguments", async () => {
    const client = await modernClient(await tokenFor(), { action: "accept", content: { confirm: true } });
    const before = deletes();
    const result = (await client.callTool({ name: "delete_invoice", arguments: { query: "INV-7" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("done delete_invoice");
    expect(deletes()).toBe(before + 1);
    expect(asked.at(-1)?.message).toMatch(/delete_invoice of the Source "billing-\d+"/);
    expect(asked.at(-1)?.message).toContain('"query": "INV-7"');
    // Through call_tool it is the same call: asked, then run once.
    const asks = asked.length;
    const viaCallTool = (await client.callTool({
      name: "call_tool",
      arguments: { name: "delete_invoice", arguments: { query: "INV-77" } },
    })) as CallToolResult;
    expect(viaCallTool.isError).toBeFalsy();
    expect(asked.length).toBe(asks + 1);
    expect(deletes()).toBe(before + 2);
    // find_tools and the Tool's page say so, with why.
    const found = (await client.callTool({
      name: "find_tools",
      arguments: { query: "delete invoice" },
    })) as CallToolResult;
    const tools = (found.structuredContent as { tools: { name: string; callPolicy?: unknown }[] }).tools;
    expect(tools.find((t) => t.name === "delete_invoice")?.callPolicy).toEqual({
      policy: "confirm",
      reason: expect.stringContaining("set on this Tool"),
    });
    expect(tools.find((t) => t.name === "read_invoice")?.callPolicy).toBeUndefined();
    // A Tool without a policy runs at once, unasked.
    await client.callTool({ name: "read_invoice", arguments: { query: "INV-7" } });
    expect(asked.length).toBe(asks + 1);
  });

  it("reaches nothing when the user declines or cancels: CONFIRMATION_DECLINED", async () => {
    const before = deletes();
    for (const answer of [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { confirm: false } },
    ] as Answer[]) {
      const client = await modernClient(await tokenFor(), answer);
      const result = await client.callTool({ name: "delete_invoice", arguments: { query: "INV-8" } });
      expect(code(result), JSON.stringify(answer)).toBe("CONFIRMATION_DECLINED");
      expect(result.isError).toBe(true);
    }
    expect(deletes()).toBe(before);
  });

  it("answers CONFIRMATION_UNAVAILABLE to a client that cannot ask its user, naming what the operator can change", async () => {
    const before = deletes();
    const token = await tokenFor();
    const noElicitation = await modernClient(token);
    const modern = await noElicitation.callTool({ name: "delete_invoice", arguments: { query: "x" } });
    expect(code(modern)).toBe("CONFIRMATION_UNAVAILABLE");
    expect(text(modern)).toMatch(/declared no form elicitation.*call policy/s);

    // A 2025-11-25 client that declared no elicitation when it connected.
    const legacy = new Client132({ name: "legacy", version: "1" }, { capabilities: {} });
    await legacy.connect(
      new Transport132(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    closers.push(() => legacy.close());
    const old = await legacy.callTool({ name: "delete_invoice", arguments: { query: "x" } });
    expect(code(old)).toBe("CONFIRMATION_UNAVAILABLE");
    expect(text(old)).toMatch(/speaks MCP 2025-11-25 and declared no form elicitation when it connected/);
    expect(deletes()).toBe(before);
  });
});

describe("a confirmation carried back by hand", () => {
  /** The first round as a manual client sees it: the InputRequiredResult, nothing fulfilled. */
  async function firstRound(client: Client, args: Record<string, unknown>) {
    const answer = (await client.request(
      { method: "tools/call", params: { name: "delete_invoice", arguments: args } },
      { allowInputRequired: true } as never,
    )) as unknown as { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string };
    expect(answer.resultType).toBe("input_required");
    expect(answer.inputRequests).toHaveProperty("confirm");
    expect(typeof answer.requestState).toBe("string");
    return answer.requestState as string;
  }
  const accept = { confirm: { action: "accept", content: { confirm: true } } };
  const retry = (client: Client, args: Record<string, unknown>, requestState: string, inputResponses = accept) =>
    client.request(
      { method: "tools/call", params: { name: "delete_invoice", arguments: args, inputResponses, requestState } },
      { allowInputRequired: true } as never,
    ) as Promise<CallToolResult>;
  const manual = (token: string) =>
    modernClient(token, { action: "accept", content: { confirm: true } }, { inputRequired: { autoFulfill: false } });

  it("runs once: a replay of the same requestState is CONFIRMATION_INVALID and reaches nothing", async () => {
    const token = await tokenFor();
    const client = await manual(token);
    const state = await firstRound(client, { query: "INV-9" });
    const before = deletes();
    const first = await retry(client, { query: "INV-9" }, state);
    expect(first.isError).toBeFalsy();
    expect(deletes()).toBe(before + 1);
    const again = await retry(client, { query: "INV-9" }, state);
    expect(code(again)).toBe("CONFIRMATION_INVALID");
    expect(text(again)).toMatch(/used already/);
    expect(deletes()).toBe(before + 1);
    // The call log holds each round: asked, run, the replay refused.
    expect(await logged(token)).toEqual(["CONFIRMATION_REQUIRED", "ok", "CONFIRMATION_INVALID"]);
  });

  it("refuses changed arguments, a tampered seal and another identity's token, reaching nothing", async () => {
    const token = await tokenFor();
    const client = await manual(token);
    const state = await firstRound(client, { query: "INV-10" });
    const before = deletes();
    const changed = await retry(client, { query: "INV-11" }, state);
    expect(code(changed)).toBe("CONFIRMATION_INVALID");
    expect(text(changed)).toMatch(/other arguments/);

    // The payload is readable (signed, not encrypted): rewrite its argument digest and keep the MAC.
    const [version, body, mac] = state.split(".");
    const payload = JSON.parse(Buffer.from(body as string, "base64url").toString("utf8"));
    payload.p.args = "0".repeat(64);
    const forged = [version, Buffer.from(JSON.stringify(payload)).toString("base64url"), mac].join(".");
    await expect(retry(client, { query: "INV-10" }, forged)).rejects.toThrow(/Invalid or expired requestState/);
    await expect(retry(client, { query: "INV-10" }, `${state}x`)).rejects.toThrow(/Invalid or expired requestState/);

    const otherToken = await tokenFor();
    const other = await manual(otherToken);
    await expect(retry(other, { query: "INV-10" }, state)).rejects.toThrow(/Invalid or expired requestState/);
    expect(deletes()).toBe(before);
    // Each refusal is in the call log under the Tool's name, with its code, on the identity that sent it.
    expect(await logged(token)).toEqual([
      "CONFIRMATION_REQUIRED",
      "CONFIRMATION_INVALID",
      "CONFIRMATION_INVALID",
      "CONFIRMATION_INVALID",
    ]);
    expect(await logged(otherToken)).toEqual(["CONFIRMATION_INVALID"]);
    // The rightful retry still runs (none of the refusals used it up).
    expect((await retry(client, { query: "INV-10" }, state)).isError).toBeFalsy();
    expect(deletes()).toBe(before + 1);
  });

  it("refuses a requestState past its expiry", async () => {
    const ttl = LIMITS.CONFIRMATION_TTL_SECONDS as { value: number };
    const kept = ttl.value;
    ttl.value = 1;
    try {
      const token = await tokenFor();
      const client = await manual(token);
      const state = await firstRound(client, { query: "INV-12" });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const before = deletes();
      await expect(retry(client, { query: "INV-12" }, state)).rejects.toThrow(/Invalid or expired requestState/);
      expect(deletes()).toBe(before);
      expect(await logged(token)).toEqual(["CONFIRMATION_REQUIRED", "CONFIRMATION_INVALID"]);
    } finally {
      ttl.value = kept;
    }
  });
});

describe("the default rule: destructive Tools under confirm", () => {
  it("applies to a Tool whose annotations say destructiveHint: true and no policy is set, until turned off", async () => {
    const db = await getDb();
    const cache = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName: "wipe_cache" } });
    await api.catalog.setCallPolicy({ toolId: cache.id, policy: "none" });
    const client = await modernClient(await tokenFor());
    const run = (name: string) => client.callTool({ name, arguments: { query: "all" } });
    const wipes = () => calls.filter((c) => c.name.startsWith("wipe_")).length;
    const before = wipes();
    expect((await run("wipe_ledger")).isError).toBeFalsy();

    expect(await api.catalog.setCallPolicyDefaults({ confirmDestructive: true })).toEqual({ confirmDestructive: true });
    try {
      expect(code(await run("wipe_ledger"))).toBe("CONFIRMATION_UNAVAILABLE");
      // A Tool's own policy wins over the rule, and a Tool without destructiveHint is not touched.
      expect((await run("wipe_cache")).isError).toBeFalsy();
      expect((await run("read_invoice")).isError).toBeFalsy();
      const ledger = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName: "wipe_ledger" } });
      expect((await api.catalog.getTool({ id: ledger.id })).callPolicy).toMatchObject({
        own: null,
        policy: "confirm",
        reason: expect.stringContaining("destructiveHint: true"),
      });
      const found = (await client.callTool({
        name: "find_tools",
        arguments: { query: "wipe ledger" },
      })) as CallToolResult;
      const tools = (found.structuredContent as { tools: { name: string; callPolicy?: { reason: string } }[] }).tools;
      expect(tools.find((t) => t.name === "wipe_ledger")?.callPolicy?.reason).toMatch(/destructiveHint/);
      expect(tools.find((t) => t.name === "wipe_cache")?.callPolicy).toBeUndefined();
    } finally {
      await api.catalog.setCallPolicyDefaults({ confirmDestructive: false });
    }
    expect((await run("wipe_ledger")).isError).toBeFalsy();
    expect(wipes()).toBe(before + 3);
    expect(await db.auditEvent.count({ where: { action: "settings.call_policy_defaults" } })).toBe(2);
  });
});
