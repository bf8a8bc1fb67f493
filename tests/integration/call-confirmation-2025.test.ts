/**
 * `confirm` for 2025-era clients that declared form elicitation: asked through
 * elicitation/create on the response stream of the same tools/call, over real HTTP with the
 * SDK's own clients (1.32 at 2025-11-25, and the v2 client pinned to 2025-11-25) against a
 * real SDK Source. /mcp keeps no session: what the client declared comes back in a sealed
 * Mcp-Session-Id, and its answer — a POST of its own — meets the waiting call through the
 * database, so it may land on another instance. Hostile answers (another identity's, a
 * replay, a forged question, a late one) reach nothing; the accepted call runs exactly once.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { LIMITS } from "@/server/limits";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { connectionTo, type operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { postMcp } from "../helpers/mcp-rpc";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { serveHandler } from "../helpers/web-handler";

withTestDatabase();
const closers: (() => Promise<void>)[] = [];
/** Two "instances": the same handler on two ports, sharing only the database. */
let mcpUrl = "";
let otherInstanceUrl = "";
const calls: { name: string; args: Record<string, unknown> }[] = [];
let sourceId = "";
let sourceName = "";
let api: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  for (const _ of [0, 1]) {
    const served = await serveHandler({ POST: handleMcpPost, GET: handleMcpOther }, "/mcp");
    closers.push(served.close);
    if (mcpUrl) otherInstanceUrl = served.url;
    else mcpUrl = served.url;
  }
  const server = await startSdkServer({
    catalog: () => [simpleTool("delete_invoice"), simpleTool("read_invoice")],
    onCall: (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: "text", text: `done ${name}` }] };
    },
  });
  closers.push(server.close);
  sourceName = `billing-${Date.now()}`;
  const connection = await connectionTo(server.url, { name: sourceName });
  api = connection.api;
  sourceId = connection.source.id;
  expect((await api.sources.checkNow({ id: sourceId })).status).toBe("succeeded");
  const db = await getDb();
  const tool = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName: "delete_invoice" } });
  await api.catalog.setCallPolicy({ toolId: tool.id, policy: "confirm" });
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

let k = 0;
async function newIdentity() {
  const identity = await api.identities.create({ name: `confirm-2025-${++k}-${Date.now()}` });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value } = await api.identities.createToken({ identityId: identity.id, name: "t" });
  return { id: identity.id, token: value };
}

async function logged(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  const rows = await db.callLog.findMany({
    where: { identityId, toolName: "delete_invoice" },
    orderBy: { startedAt: "asc" },
    select: { outcome: true, failureCode: true },
  });
  return rows.map((r) => r.failureCode ?? r.outcome);
}

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, boolean> };
const asked: { message: string; mode?: string }[] = [];

/** The SDK 1.32 client (2025-11-25) whose "user" answers with `answer`, after `delayMs`. */
async function client132(token: string, answer?: Answer, delayMs = 0) {
  const client = new Client(
    { name: "confirm-2025", version: "1" },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push({ message: request.params.message, mode: (request.params as { mode?: string }).mode });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer;
    });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  expect(transport.protocolVersion).toBe("2025-11-25");
  closers.push(() => client.close());
  return { client, transport };
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const code = (r: unknown) => ((r as CallToolResult).structuredContent as { error?: { code: string } })?.error?.code;
const deletes = () => calls.filter((c) => c.name === "delete_invoice").length;

describe("a 2025-11-25 client that declared form elicitation", () => {
  it("is asked on the call's own stream, showing the Tool, its Source and the arguments (secrets redacted); accepted, the call runs exactly once", async () => {
    const agent = await newIdentity();
    const { client, transport } = await client132(agent.token, { action: "accept", content: { confirm: true } });
    // What it declared is carried in a sealed session id: nothing is kept on the server.
    expect(transport.sessionId).toMatch(/^qms1\./);
    const before = deletes();
    const result = (await client.callTool({
      name: "delete_invoice",
      arguments: { query: "INV-7", apiKey: "sk-live-never-shown" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("done delete_invoice");
    expect(deletes()).toBe(before + 1);
    expect(calls.at(-1)?.args).toEqual({ query: "INV-7", apiKey: "sk-live-never-shown" });
    const question = asked.at(-1);
    expect(question?.mode).toBe("form");
    expect(question?.message).toContain(`delete_invoice of the Source "${sourceName}"`);
    expect(question?.message).toContain('"query": "INV-7"');
    expect(question?.message).toContain('"apiKey": "[redacted]"');
    expect(question?.message).not.toContain("sk-live-never-shown");
    // The round is in the call log: asked, then run; and no question is left open.
    expect(await logged(agent.id)).toEqual(["CONFIRMATION_REQUIRED", "ok"]);
    expect(await (await getDb()).clientQuestion.count()).toBe(0);
    // A Tool under no policy is not asked about.
    const asks = asked.length;
    expect(
      ((await client.callTool({ name: "read_invoice", arguments: { query: "x" } })) as CallToolResult).isError,
    ).toBeFalsy();
    expect(asked.length).toBe(asks);
  });

  it("reaches nothing when the user declines, cancels or unticks: CONFIRMATION_DECLINED", async () => {
    const before = deletes();
    for (const answer of [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { confirm: false } },
    ] as Answer[]) {
      const agent = await newIdentity();
      const { client } = await client132(agent.token, answer);
      const result = await client.callTool({ name: "delete_invoice", arguments: { query: "INV-8" } });
      expect(code(result), JSON.stringify(answer)).toBe("CONFIRMATION_DECLINED");
      expect(result.isError).toBe(true);
      expect(await logged(agent.id)).toEqual(["CONFIRMATION_REQUIRED", "CONFIRMATION_DECLINED"]);
    }
    expect(deletes()).toBe(before);
  });

  it("is asked through the v2 client too, speaking 2025-11-25", async () => {
    const agent = await newIdentity();
    const client = new ClientV2(
      { name: "confirm-v2-legacy", version: "1" },
      // Its default negotiation: initialize, as a 2025-era client.
      { versionNegotiation: { mode: "legacy" }, capabilities: { elicitation: { form: {} } } },
    );
    let shown = "";
    client.setRequestHandler("elicitation/create", async (request) => {
      shown = (request.params as { message: string }).message;
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(
      new TransportV2(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${agent.token}` } } }),
    );
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const before = deletes();
    const result = (await client.callTool({
      name: "delete_invoice",
      arguments: { query: "INV-V2" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(shown).toContain("INV-V2");
    expect(deletes()).toBe(before + 1);
  });

  it("gives up when the user does not answer before the confirmation expires; the late answer reaches nothing", async () => {
    const ttl = LIMITS.CONFIRMATION_TTL_SECONDS as { value: number };
    const kept = ttl.value;
    ttl.value = 1;
    try {
      const agent = await newIdentity();
      const { client } = await client132(agent.token, { action: "accept", content: { confirm: true } }, 2500);
      const before = deletes();
      const result = await client.callTool({ name: "delete_invoice", arguments: { query: "INV-late" } });
      expect(code(result)).toBe("CONFIRMATION_DECLINED");
      expect(text(result)).toMatch(/did not answer within 1 s/);
      // The client's answer comes after its question closed: refused, and nothing runs.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(deletes()).toBe(before);
      expect(await logged(agent.id)).toEqual(["CONFIRMATION_REQUIRED", "CONFIRMATION_DECLINED"]);
    } finally {
      ttl.value = kept;
    }
  });
});

describe("clients that cannot be asked", () => {
  it("answers CONFIRMATION_UNAVAILABLE, saying why and what the operator can change, and reaches nothing", async () => {
    const before = deletes();
    const agent = await newIdentity();
    const { client, transport } = await client132(agent.token);
    // Nothing to remember: no session id, as before.
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: "delete_invoice", arguments: { query: "x" } });
    expect(code(result)).toBe("CONFIRMATION_UNAVAILABLE");
    expect(text(result)).toMatch(/declared no form elicitation when it connected.*call policy/s);

    // A session id minted for another identity says nothing about this one's client.
    const other = await newIdentity();
    const { transport: theirs } = await client132(other.token, { action: "accept", content: { confirm: true } });
    const borrowed = await postMcp(
      mcpUrl,
      agent.token,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "delete_invoice", arguments: { query: "y" } } },
      { "mcp-protocol-version": "2025-11-25", "mcp-session-id": theirs.sessionId as string },
    );
    expect(await borrowed.text()).toContain("CONFIRMATION_UNAVAILABLE");

    // 2025-03-26 has no elicitation at all.
    const old = await postMcp(mcpUrl, agent.token, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "delete_invoice", arguments: { query: "z" } },
    });
    expect(await old.text()).toMatch(/speaks MCP 2025-03-26, which has no elicitation/);
    expect(deletes()).toBe(before);
  });
});

/** The events of an event-stream response as they arrive. */
async function* events(response: Response): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut !== -1) {
      const data = buffer
        .slice(0, cut)
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      buffer = buffer.slice(cut + 2);
      if (data) yield JSON.parse(data);
      cut = buffer.indexOf("\n\n");
    }
  }
}

describe("the answer, by hand over HTTP", () => {
  /** Initialize declaring form elicitation, then a tools/call whose stream is read event by event. */
  async function askedCall(token: string, args: Record<string, unknown>) {
    const init = await postMcp(
      mcpUrl,
      token,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: {} },
          clientInfo: { name: "by-hand", version: "1" },
        },
      },
      { "mcp-protocol-version": "2025-11-25" },
    );
    const session = init.headers.get("mcp-session-id") as string;
    expect(session).toMatch(/^qms1\./);
    await init.text();
    const headers = { "mcp-protocol-version": "2025-11-25", "mcp-session-id": session };
    const response = await postMcp(
      mcpUrl,
      token,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "delete_invoice", arguments: args } },
      headers,
    );
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const stream = events(response);
    const question = (await stream.next()).value as { id: string; method: string; params: { message: string } };
    expect(question.method).toBe("elicitation/create");
    const answer = (url: string, as: string) =>
      postMcp(
        url,
        as,
        { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { confirm: true } } },
        headers,
      );
    return { question, stream, answer, headers };
  }

  it("takes an answer only from the identity asked, once, on any instance; the call runs exactly once", async () => {
    const agent = await newIdentity();
    const intruder = await newIdentity();
    const before = deletes();
    const { question, stream, answer } = await askedCall(agent.token, { query: "INV-hand" });
    expect(question.id).toMatch(/^qmq_/);

    // Another identity's answer, and an answer to a question never asked, are refused.
    expect((await answer(mcpUrl, intruder.token)).status).toBe(404);
    const forged = await postMcp(mcpUrl, agent.token, {
      jsonrpc: "2.0",
      id: `qmq_${"A".repeat(24)}`,
      result: { action: "accept", content: { confirm: true } },
    });
    expect(forged.status).toBe(404);
    expect(deletes()).toBe(before);

    // The rightful answer, posted to the other instance, reaches the call waiting on this one.
    expect((await answer(otherInstanceUrl, agent.token)).status).toBe(202);
    const final = (await stream.next()).value as { id: number; result: CallToolResult };
    expect(final.id).toBe(7);
    expect(final.result.isError).toBeFalsy();
    expect(deletes()).toBe(before + 1);

    // Replayed, the answer finds no question: the call does not run twice.
    expect((await answer(mcpUrl, agent.token)).status).toBe(404);
    expect((await answer(otherInstanceUrl, agent.token)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(deletes()).toBe(before + 1);
    expect(await logged(agent.id)).toEqual(["CONFIRMATION_REQUIRED", "ok"]);
  });

  it("reaches nothing when the agent hangs up while its user is asked, and a later answer finds no question", async () => {
    const agent = await newIdentity();
    const before = deletes();
    const { stream, answer } = await askedCall(agent.token, { query: "INV-gone" });
    await stream.return(undefined);
    // The waiting call sees the hang-up and closes its question.
    await expect
      .poll(async () => (await getDb()).clientQuestion.count({ where: { identityId: agent.id } }), { timeout: 5000 })
      .toBe(0);
    expect((await answer(mcpUrl, agent.token)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(deletes()).toBe(before);
  });
});
