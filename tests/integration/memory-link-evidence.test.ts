/**
 * The resource-link evidence (issue 31, item 6) end to end: real MCP clients over HTTP (the
 * SDK's v2 Client at 2026-07-28, which names itself in every request's _meta, and the 1.32
 * SDK's Client at 2025-11-25, which names itself only at initialize) search and brief, then
 * read — or do not — what came back truncated; the identity page's follow rate per client
 * counts exactly the reads that followed a truncated return by the same identity and token.
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as Client132 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport132 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createToken } from "@/server/domain/identities/tokens";
import { sweepLinkEvidence } from "@/server/domain/memory/link-evidence";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { makeAgent, makeScope, remember } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();

type CallResult = { isError?: boolean; content: { type: string; uri?: string }[]; structuredContent?: unknown };
interface Agent {
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  readResource(p: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
}

/** A 2026-07-28 client: its name and version travel in every request's _meta. */
async function modernClient(token: string, name: string, version: string): Promise<Agent> {
  const options: ClientOptions = { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  const client = new Client({ name, version }, options);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  mcp.closers.push(() => client.close());
  return client;
}

/** A 2025-11-25 client (the 1.32 SDK): it names itself only in initialize. */
async function legacyClient(token: string, name: string, version: string): Promise<Agent> {
  const client = new Client132({ name, version });
  await client.connect(
    new Transport132(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  mcp.closers.push(() => client.close());
  return client as unknown as Agent;
}

async function call(agent: Agent, name: string, args: Record<string, unknown> = {}) {
  const result = (await agent.callTool({ name, arguments: args })) as CallResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result;
}

const LONG = (topic: string) =>
  `${topic}: ${"the rollout waits for the canary to report healthy before the next region. ".repeat(12)}`;

async function tokenFor(identityId: string) {
  const { value, token } = await createToken(SYSTEM, { identityId, name: `t-${Math.random()}` });
  return { value, tokenId: token.id };
}

async function rates(identityId: string) {
  const { actor } = await makeUser("viewer");
  return (await callerFor(actor).identities.linkFollowRates({ id: identityId })).clients;
}

/** A scope holding one long (truncated by search) and one short memory, and an agent reading it. */
async function world() {
  const scope = await makeScope();
  const long = await remember(scope.id, LONG("Canary rollout"), { kind: "decision" });
  const short = await remember(scope.id, "Canary rollout: short note.");
  const agent = await makeAgent({ [scope.id]: "read" });
  return { scope, long, short, agent };
}

describe("resource-link evidence", () => {
  it("counts a resource read after a truncated search as followed, and nothing for a memory search returned whole", async () => {
    const { scope, long, short, agent } = await world();
    const { value } = await tokenFor(agent.identityId);
    const client = await modernClient(value, "reader-app", "1.4.0");

    const found = await call(client, "search", { query: "canary rollout", scope: scope.name });
    const hits = (found.structuredContent as { hits: { id: string; truncated: boolean }[] }).hits;
    expect(hits.find((h) => h.id === long.id)?.truncated).toBe(true);
    expect(hits.find((h) => h.id === short.id)?.truncated).toBe(false);
    expect(found.content.filter((b) => b.type === "resource_link").map((b) => b.uri)).toContain(
      `qm://memory/${long.id}`,
    );
    expect(await rates(agent.identityId)).toMatchObject([
      { clientName: "reader-app", clientVersion: "1.4.0", offered: 1, followed: 0, open: 1, rate: null },
    ]);

    await client.readResource({ uri: `qm://memory/${long.id}` });
    // The short one came back whole: reading it follows nothing.
    await client.readResource({ uri: `qm://memory/${short.id}` });
    expect(await rates(agent.identityId)).toMatchObject([
      {
        clientName: "reader-app",
        clientVersion: "1.4.0",
        offered: 1,
        followed: 1,
        byResource: 1,
        byGetMemories: 0,
        open: 0,
        rate: 1,
      },
    ]);
    // Searching again refreshes the one offer; a memory once read stays followed.
    await call(client, "search", { query: "canary rollout", scope: scope.name });
    expect(await rates(agent.identityId)).toMatchObject([{ offered: 1, followed: 1, rate: 1 }]);
  });

  it("ignores a read with no truncated return before it, and one after the window closed", async () => {
    const { scope, long, agent } = await world();
    const { value, tokenId } = await tokenFor(agent.identityId);
    const client = await modernClient(value, "reader-app", "1.4.0");

    // Read by id, never offered: no evidence at all.
    await client.readResource({ uri: `qm://memory/${long.id}` });
    await call(client, "get_memories", { ids: [long.id] });
    expect(await rates(agent.identityId)).toEqual([]);

    // Offered, but the read comes after MEMORY_LINK_FOLLOW_MINUTES.
    await call(client, "search", { query: "canary rollout", scope: scope.name });
    const db = await getDb();
    const late = new Date(Date.now() - (LIMITS.MEMORY_LINK_FOLLOW_MINUTES.value + 1) * 60_000);
    await db.memoryLinkOffer.update({
      where: { tokenId_memoryId: { tokenId, memoryId: long.id } },
      data: { offeredAt: late },
    });
    await client.readResource({ uri: `qm://memory/${long.id}` });
    expect(await rates(agent.identityId)).toMatchObject([{ offered: 1, followed: 0, open: 0, rate: 0 }]);
  });

  it("does not count a read by another identity, nor by the same identity's other token", async () => {
    const { scope, long, agent } = await world();
    const other = await makeAgent({ [scope.id]: "read" });
    const first = await modernClient((await tokenFor(agent.identityId)).value, "reader-app", "1.4.0");
    const sibling = await modernClient((await tokenFor(agent.identityId)).value, "reader-app", "1.4.0");
    const stranger = await modernClient((await tokenFor(other.identityId)).value, "reader-app", "1.4.0");

    await call(first, "search", { query: "canary rollout", scope: scope.name });
    await stranger.readResource({ uri: `qm://memory/${long.id}` });
    await call(stranger, "get_memories", { ids: [long.id] });
    await sibling.readResource({ uri: `qm://memory/${long.id}` });

    expect(await rates(agent.identityId)).toMatchObject([{ offered: 1, followed: 0, open: 1 }]);
    expect(await rates(other.identityId)).toEqual([]);
    // …and the token that was offered it still can.
    await first.readResource({ uri: `qm://memory/${long.id}` });
    expect(await rates(agent.identityId)).toMatchObject([{ offered: 1, followed: 1 }]);
  });

  it("counts get_memories after a briefing returned the memory truncated with a resource link", async () => {
    const { scope, long, agent } = await world();
    const { value, tokenId } = await tokenFor(agent.identityId);
    const client = await modernClient(value, "briefed-app", "0.9.1");

    const brief = await call(client, "briefing", { scope: scope.name });
    const decisions = (brief.structuredContent as { decisions: { id: string; truncated: boolean }[] }).decisions;
    expect(decisions.find((d) => d.id === long.id)?.truncated).toBe(true);
    // Only the truncated ones carry a link; the short note is whole.
    expect(brief.content.filter((b) => b.type === "resource_link").map((b) => b.uri)).toEqual([
      `qm://memory/${long.id}`,
    ]);

    await call(client, "get_memories", { ids: [long.id] });
    expect(await rates(agent.identityId)).toMatchObject([
      { clientName: "briefed-app", clientVersion: "0.9.1", offered: 1, followed: 1, byGetMemories: 1, rate: 1 },
    ]);
    const db = await getDb();
    expect(
      await db.memoryLinkOffer.findUnique({ where: { tokenId_memoryId: { tokenId, memoryId: long.id } } }),
    ).toMatchObject({ via: "briefing", followedBy: "get_memories" });
  });

  it("tells two versions of a client apart, whether it names itself per request (2026-07-28) or at initialize (2025-11-25)", async () => {
    const { scope, long, agent } = await world();
    const older = await tokenFor(agent.identityId);
    const newer = await tokenFor(agent.identityId);
    // The 2025-era client names itself only at initialize: its calls after are stateless.
    const v1 = await legacyClient(older.value, "desk-agent", "1.0.0");
    const v2 = await modernClient(newer.value, "desk-agent", "2.0.0");

    await call(v1, "search", { query: "canary rollout", scope: scope.name });
    await call(v2, "search", { query: "canary rollout", scope: scope.name });
    await v1.readResource({ uri: `qm://memory/${long.id}` });
    // v2 never reads it; once its window closes, the offer counts against it.
    const db = await getDb();
    await db.memoryLinkOffer.update({
      where: { tokenId_memoryId: { tokenId: newer.tokenId, memoryId: long.id } },
      data: { offeredAt: new Date(Date.now() - (LIMITS.MEMORY_LINK_FOLLOW_MINUTES.value + 1) * 60_000) },
    });

    const byVersion = Object.fromEntries((await rates(agent.identityId)).map((r) => [r.clientVersion, r]));
    expect(Object.keys(byVersion).sort()).toEqual(["1.0.0", "2.0.0"]);
    expect(byVersion["1.0.0"]).toMatchObject({ clientName: "desk-agent", offered: 1, followed: 1, rate: 1 });
    expect(byVersion["2.0.0"]).toMatchObject({ clientName: "desk-agent", offered: 1, followed: 0, rate: 0 });
    expect(await db.mcpTokenClient.findUnique({ where: { tokenId: older.tokenId } })).toMatchObject({
      name: "desk-agent",
      version: "1.0.0",
    });
  });

  it("a client that never named itself is recorded as unnamed, not as another's", async () => {
    const { scope, agent } = await world();
    const { value } = await tokenFor(agent.identityId);
    // Plain JSON-RPC at 2025-11-25 with no initialize: no clientInfo anywhere.
    const response = await fetch(mcp.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${value}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search", arguments: { query: "canary rollout", scope: scope.name } },
      }),
    });
    expect(response.status).toBe(200);
    expect(await rates(agent.identityId)).toMatchObject([{ clientName: "", clientVersion: "", offered: 1 }]);
  });

  it("is swept past its days and past its row ceiling, oldest first", async () => {
    const db = await getDb();
    await db.memoryLinkOffer.deleteMany({});
    const now = new Date();
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
    const row = (memoryId: string, offeredAt: Date) => ({
      tokenId: "t-sweep",
      memoryId,
      identityId: "i-sweep",
      clientName: "c",
      clientVersion: "1",
      via: "search",
      offeredAt,
    });
    await db.memoryLinkOffer.createMany({
      data: [
        row("ancient", at(31 * 24 * 60)),
        row("old", at(300)),
        row("older", at(400)),
        row("new", at(1)),
        row("newer", at(0)),
      ],
    });
    await db.mcpTokenClient.create({ data: { tokenId: "t-gone", name: "c", version: "1", seenAt: at(31 * 24 * 60) } });
    const swept = await sweepLinkEvidence(now, { days: 30, rows: 2 });
    expect(swept).toEqual({ aged: 1, over: 2, clients: 1 });
    const left = await db.memoryLinkOffer.findMany({ select: { memoryId: true } });
    expect(left.map((r) => r.memoryId).sort()).toEqual(["new", "newer"]);
    // Idempotent: a second sweep (another instance's) finds nothing.
    expect(await sweepLinkEvidence(now, { days: 30, rows: 2 })).toEqual({ aged: 0, over: 0, clients: 0 });
  });
});
