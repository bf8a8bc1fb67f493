/**
 * Erasure reaches the call log: a captured call's arguments and result that carried an
 * erased memory (remember's body, a search hit, get_memories, a briefing) are cleared with
 * it, including a call still waiting to be written when the erasure ran; and text the
 * database cannot store inside a captured call never stops the call log.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { ERASED_PAYLOAD } from "@/server/domain/calls/memory-refs";
import { flushCallLog, recordCall } from "@/server/domain/calls/recorder";
import { createToken } from "@/server/domain/identities/tokens";
import { eraseMemory } from "@/server/domain/memory/erase";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { callTool } from "../helpers/mcp-rpc";
import { makeAgent, makeScope, remember } from "../helpers/memory";
import { tracesOf } from "../helpers/traces";

withTestDatabase();
const mcp = mcpRoute();

async function capturedAgent() {
  const admin = await makeUser("admin");
  const scope = await makeScope();
  const agent = await makeAgent({ [scope.id]: "write" });
  const { value: token } = await createToken(SYSTEM, { identityId: agent.identityId, name: "capture" });
  await callerFor(admin.actor).calls.setCapture({ identityId: agent.identityId, retentionDays: 7 });
  return { admin, scope, agent, token };
}

const call = (identityId: string, toolName: string, args: unknown, result: unknown) => ({
  startedAt: new Date(),
  durationMs: 1,
  identityId,
  tokenId: null,
  toolName,
  builtIn: true,
  outcome: "ok" as const,
  failureCode: null,
  arguments: args,
  result,
});

describe("erasure and the call log", () => {
  it("clears every captured payload that carried the erased memory, and no other", async () => {
    const { admin, scope, agent, token } = await capturedAgent();
    const secret = "wombatfjord";
    const said = await callTool(mcp.url, token, "remember", {
      body: `Customer ${secret} prefers calls after 4 pm.`,
      scope: scope.name,
    });
    const id = said.result?.structuredContent?.id as string;
    expect(id).toBeTruthy();
    await callTool(mcp.url, token, "search", { query: "customer prefers calls", scope: scope.name });
    await callTool(mcp.url, token, "get_memories", { ids: [id] });
    await callTool(mcp.url, token, "briefing", { scope: scope.name });
    const other = await remember(scope.id, "Invoices go out on the first working day.");
    await callTool(mcp.url, token, "get_memories", { ids: [other.id] });
    await flushCallLog();
    const db = await getDb();
    const before = await db.callLog.findMany({ where: { identityId: agent.identityId } });
    expect(before.filter((r) => `${r.arguments}${r.result}`.includes(secret)).length).toBeGreaterThanOrEqual(3);

    await eraseMemory(admin.actor, { id, reason: "GDPR request" });
    expect(await tracesOf(secret)).toEqual([]);
    const after = await db.callLog.findMany({ where: { identityId: agent.identityId }, orderBy: { startedAt: "asc" } });
    expect(after.filter((r) => r.result === ERASED_PAYLOAD).length).toBeGreaterThanOrEqual(3);
    // The call that carried another memory keeps its payload.
    expect(after.some((r) => r.result?.includes("Invoices go out"))).toBe(true);
  });

  it("a call written after the erasure that carried the erased memory keeps no payload", async () => {
    const { admin, scope, agent } = await capturedAgent();
    const secret = "narwhalquince";
    const memory = await remember(scope.id, `Badge ${secret} opens the server room.`);
    await eraseMemory(admin.actor, { id: memory.id, reason: "legal request" });
    // In flight when the erasure ran (this or another instance's buffer): written only now.
    recordCall(
      call(
        agent.identityId,
        "get_memories",
        { ids: [memory.id] },
        {
          content: [{ type: "text", text: `qm://memory/${memory.id}: Badge ${secret} opens the server room.` }],
        },
      ),
    );
    await flushCallLog();
    expect(await tracesOf(secret)).toEqual([]);
  });

  it("text the database cannot store in a captured call is kept as a replacement character, and the log goes on", async () => {
    const { agent, token, scope } = await capturedAgent();
    // A NUL in the Tool's name, lone surrogates in the arguments and the result.
    const refused = await callTool(mcp.url, token, "no\u0000such\ud800tool", { q: "a\udc00b" });
    // No Tool can have that name: not found, as any unknown name, not a broken request.
    expect(refused.error?.data).toMatchObject({ code: "NOT_FOUND" });
    recordCall(
      call(agent.identityId, "odd\u0000name", { q: "x\ud83d" }, { content: [{ type: "text", text: "\u0000\udfff" }] }),
    );
    await callTool(mcp.url, token, "briefing", { scope: scope.name });
    await flushCallLog();
    const db = await getDb();
    const rows = await db.callLog.findMany({ where: { identityId: agent.identityId }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => r.toolName)).toEqual(["no\ufffdsuch\ufffdtool", "odd\ufffdname", "briefing"]);
  });
});
