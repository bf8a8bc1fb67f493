/**
 * Every write path records where a memory came from (docs/decisions/0089): an agent's
 * remember, debrief and handoff over /mcp name the token, the Tool Call's call log row and
 * the MCP client (from the request on 2026-07-28, from the token's initialize before it);
 * a console session, an API key, a supersession and an accepted merge name theirs; a memory
 * whose provenance was never recorded says so, and search filters by each.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { createToken } from "@/server/domain/identities/tokens";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { getMemory } from "@/server/domain/memory/memories";
import { EXPORT_FORMAT, importScope } from "@/server/domain/memory/portable";
import { listProposals } from "@/server/domain/memory/proposals";
import { listMemories, searchMemories } from "@/server/domain/memory/search";
import { makeUser, ORIGIN, signIn, trpcHttp } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { makeAgent, makeScope, remember } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();

async function tokenFor(grants: Record<string, "read" | "write">) {
  const agent = await makeAgent(grants);
  const { value, token } = await createToken(SYSTEM, { identityId: agent.identityId, name: "provenance" });
  return { agent, token: value, tokenId: token.id };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe("memory provenance", () => {
  it("an agent's writes over /mcp name its token, the Tool Call's call log row and its MCP client", async () => {
    const scope = await makeScope();
    const { agent, token, tokenId } = await tokenFor({ [scope.id]: "write" });
    // A 2025-era client: its tools/call names no client, its initialize did.
    const legacy = await mcp.connect(token, "provenance-agent", undefined);
    const written = await call(legacy, "remember", { scope: scope.name, body: "Deploys freeze on Fridays." });
    const debrief = await call(legacy, "debrief", {
      scope: scope.name,
      summary: "Checked the release process.",
      learned: ["Soak lasts 24 hours."],
      decisions: ["Keep Tuesday releases."],
    });
    const handoff = await call(legacy, "handoff", { scope: scope.name, body: "Finish the runbook.", toThread: "ops" });
    // A 2026-07-28 client on the same token names itself in every request: that one is used.
    const modern = await mcp.connect(token, "modern-agent", { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const latest = await call(modern, "remember", { scope: scope.name, body: "Canary first, then 50%." });
    await flushCallLog();

    const db = await getDb();
    const memory = await getMemory(SYSTEM, { id: written.id as string });
    expect(memory).toMatchObject({
      authorType: "agent",
      authorId: agent.identityId,
      writtenVia: "mcp",
      authorTokenId: tokenId,
      clientName: "provenance-agent",
      clientVersion: "1",
    });
    const row = await db.callLog.findUniqueOrThrow({ where: { id: memory.callId as string } });
    expect(row).toMatchObject({ toolName: "remember", tokenId, identityId: agent.identityId, outcome: "ok" });

    // debrief writes several memories in one call: all name it; each call its own row.
    const ids = [
      debrief.summaryId as string,
      ...(debrief.learnedIds as string[]),
      ...(debrief.decisionIds as string[]),
    ];
    expect(ids).toHaveLength(3);
    const debriefCalls = new Set(
      (await db.memory.findMany({ where: { id: { in: ids } }, select: { callId: true } })).map((m) => m.callId),
    );
    expect(debriefCalls.size).toBe(1);
    expect(debriefCalls.has(memory.callId)).toBe(false);
    const [debriefCall] = [...debriefCalls];
    expect((await db.callLog.findUniqueOrThrow({ where: { id: debriefCall as string } })).toolName).toBe("debrief");
    const handed = await getMemory(SYSTEM, { id: handoff.id as string });
    expect((await db.callLog.findUniqueOrThrow({ where: { id: handed.callId as string } })).toolName).toBe("handoff");
    expect(await getMemory(SYSTEM, { id: latest.id as string })).toMatchObject({
      authorTokenId: tokenId,
      clientName: "modern-agent",
      clientVersion: "1",
    });

    // Search (tRPC's and the console list's filters) finds a call's, a client's, a token's writes.
    const byCall = await searchMemories(SYSTEM, { scopeId: scope.id, callId: debriefCall as string, limit: 50 });
    expect(byCall.hits.map((h) => h.id).sort()).toEqual([...ids].sort());
    const byClient = await listMemories(SYSTEM, { scopeId: scope.id, clientName: "modern-agent" });
    expect(byClient.items.map((m) => m.id)).toEqual([latest.id]);
    const byToken = await listMemories(SYSTEM, { scopeId: scope.id, authorTokenId: tokenId, writtenVia: "mcp" });
    expect(byToken.items.length).toBe(2 + ids.length + 1);
    expect((await listMemories(SYSTEM, { scopeId: scope.id, writtenVia: "console" })).items).toEqual([]);
  });

  it("a console session, an API key, a supersession and an accepted merge name theirs; older memories say unknown", async () => {
    const scope = await makeScope();
    const curator = await makeUser("curator");
    const { cookie } = await signIn(curator.email, curator.password);
    const session = { cookie: cookie as string, origin: ORIGIN };
    const viaConsole = await trpcHttp("memories.create", {
      mutation: true,
      headers: session,
      input: { scopeId: scope.id, body: "Incident reviews happen within five working days of the incident." },
    });
    expect(viaConsole.status).toBe(200);
    const db = await getDb();
    const sessionRow = await db.session.findFirstOrThrow({ where: { userId: curator.user.id } });
    const consoleMemory = await getMemory(SYSTEM, { id: viaConsole.body.result.data.json.id });
    expect(consoleMemory).toMatchObject({
      authorType: "user",
      authorId: curator.user.id,
      writtenVia: "console",
      authorTokenId: `session:${sessionRow.id}`,
      callId: null,
      clientName: null,
    });
    // The session's id, never its token.
    expect(consoleMemory.authorTokenId).not.toContain(sessionRow.token);

    const { key, apiKey } = await createApiKey(SYSTEM, { name: "writer", role: "curator" });
    const bearer = { authorization: `Bearer ${key}` };
    const viaKey = await trpcHttp("memories.create", {
      mutation: true,
      headers: bearer,
      input: {
        scopeId: scope.id,
        body: "Incident reviews happen within five working days of the incident, led by the on-call engineer.",
      },
    });
    const keyMemory = await getMemory(SYSTEM, { id: viaKey.body.result.data.json.id });
    expect(keyMemory).toMatchObject({ writtenVia: "api", authorTokenId: `api_key:${apiKey.id}` });

    const corrected = await trpcHttp("memories.supersede", {
      mutation: true,
      headers: session,
      input: { memoryId: keyMemory.id, body: "Incident reviews happen within three working days." },
    });
    expect(await getMemory(SYSTEM, { id: corrected.body.result.data.json.id })).toMatchObject({
      writtenVia: "console",
      authorTokenId: `session:${sessionRow.id}`,
    });

    // A merge is written by the consolidator on behalf of whoever accepted it.
    const other = await remember(scope.id, "Staging resets every night at two.");
    await remember(scope.id, "Staging resets every night at two, UTC.");
    await consolidateScope(scope.id);
    const merge = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find(
      (p) => p.kind === "merge" && p.memoryIds.includes(other.id),
    );
    expect(merge).toBeDefined();
    const accepted = await trpcHttp("proposals.accept", { mutation: true, headers: bearer, input: { id: merge?.id } });
    expect(accepted.status).toBe(200);
    expect(await getMemory(SYSTEM, { id: accepted.body.result.data.json.resultMemoryId })).toMatchObject({
      authorType: "system",
      writtenVia: "api",
      authorTokenId: `api_key:${apiKey.id}`,
    });

    // A file from before provenance was recorded: its memory keeps nulls, found as unknown.
    const legacyScope = "7b0c6f7e-4a51-4d8e-9f5c-0d3b2a1e9c01";
    const legacyMemory = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";
    const at = "2025-06-01T00:00:00.000Z";
    const file = [
      {
        type: "scope",
        format: EXPORT_FORMAT,
        id: legacyScope,
        name: `legacy-${Date.now()}`,
        description: "",
        consolidateEverySeconds: 86_400,
        createdAt: at,
      },
      {
        type: "memory",
        id: legacyMemory,
        kind: "note",
        body: "Written long ago.",
        title: "Written long ago.",
        bodyBytes: 17,
        contentHash: null,
        tags: [],
        authorType: "user",
        authorId: null,
        authorLabel: "someone@example.test",
        occurredAt: at,
        recordedAt: at,
        episodeId: legacyMemory,
        supersededById: null,
        supersededAt: null,
        discardedAt: null,
        mergedFrom: [],
        erasedAt: null,
        erasedBy: null,
        erasureReason: null,
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n");
    await importScope(SYSTEM, { jsonl: file, acceptUnsigned: true });
    expect(await getMemory(SYSTEM, { id: legacyMemory })).toMatchObject({
      writtenVia: null,
      authorTokenId: null,
      callId: null,
      clientName: null,
    });
    const unknown = await listMemories(SYSTEM, { scopeId: legacyScope, writtenVia: "unknown" });
    expect(unknown.items.map((m) => m.id)).toEqual([legacyMemory]);
  });
});
