/**
 * No existence oracle: an id the caller may not read answers exactly as an id that does not
 * exist (NOT_FOUND, the same words), on /mcp's tools and resources and in the domain the
 * console calls, and no refusal names a scope the caller holds no grant for.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createToken } from "@/server/domain/identities/tokens";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { getMemory } from "@/server/domain/memory/memories";
import { acceptProposal, listProposals, rejectProposal } from "@/server/domain/memory/proposals";
import { createThread, getThread, listThreads } from "@/server/domain/memory/threads";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { callRpc, callTool, type RpcAnswer } from "../helpers/mcp-rpc";
import { makeAgent, makeScope, remember } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();

async function tokenFor(grants: Record<string, "read" | "write">) {
  const agent = await makeAgent(grants);
  const { value } = await createToken(SYSTEM, { identityId: agent.identityId, name: "oracle" });
  return { agent, token: value };
}

/** A scope with a pending proposal (two exact duplicates) and a thread. */
async function scopeWithProposal(secretName = `payroll-secret-${randomUUID().slice(0, 8)}`) {
  const scope = await makeScope(secretName);
  await remember(scope.id, "Backups run nightly at 02:00 UTC.", { threads: ["ops"] });
  await remember(scope.id, "Backups run nightly at 02:00 UTC.");
  await consolidateScope(scope.id);
  const [proposal] = (await listProposals(SYSTEM, { scopeId: scope.id })).items;
  if (!proposal) throw new Error("expected a proposal for the exact duplicate");
  return { scope, proposal };
}

/** The answer with the id asked about replaced, so two answers compare word for word. */
const shape = (answer: RpcAnswer, id: string) => JSON.parse(JSON.stringify(answer).replaceAll(id, "<id>"));

describe("an id the caller may not read answers as a missing one", () => {
  it("review_proposals: another scope's proposal is NOT_FOUND word for word, never naming that scope, and stays pending", async () => {
    const victim = await scopeWithProposal();
    const mine = await makeScope();
    const { token } = await tokenFor({ [mine.id]: "write" });
    const unknown = randomUUID();
    for (const action of ["accept", "reject"] as const) {
      const args = (id: string) => ({ action, id, scope: mine.name, reason: "Not a duplicate" });
      const theirs = await callTool(mcp.url, token, "review_proposals", args(victim.proposal.id));
      const missing = await callTool(mcp.url, token, "review_proposals", args(unknown));
      expect(theirs.result?.isError, action).toBe(true);
      expect(JSON.stringify(theirs), action).toContain("NOT_FOUND");
      expect(JSON.stringify(theirs), action).not.toContain(victim.scope.name);
      expect(shape(theirs, victim.proposal.id), action).toEqual(shape(missing, unknown));
    }
    // Working in the scope it names: a write grant elsewhere does not reach the proposal through it.
    const both = await tokenFor({ [mine.id]: "write", [victim.scope.id]: "read" });
    const crossed = await callTool(mcp.url, both.token, "review_proposals", {
      action: "accept",
      id: victim.proposal.id,
      scope: mine.name,
    });
    expect(shape(crossed, victim.proposal.id)).toEqual(
      shape(
        await callTool(mcp.url, both.token, "review_proposals", { action: "accept", id: unknown, scope: mine.name }),
        unknown,
      ),
    );
    const [still] = (await listProposals(SYSTEM, { scopeId: victim.scope.id })).items;
    expect(still?.status).toBe("pending");
  });

  it("a proposal decided in the console is looked up in the scope the call names", async () => {
    const victim = await scopeWithProposal();
    const other = await makeScope();
    const { actor } = await makeUser("curator");
    const caller = callerFor(actor);
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => "allowed",
        (e: { message: string }) => e.message,
      );
    expect(await refusal(caller.proposals.accept({ id: victim.proposal.id, scopeId: other.id }))).toBe(
      `Proposal ${victim.proposal.id} was not found.`,
    );
    expect(
      await refusal(caller.proposals.reject({ id: victim.proposal.id, scopeId: other.id, reason: "wrong scope" })),
    ).toBe(`Proposal ${victim.proposal.id} was not found.`);
    expect((await caller.proposals.accept({ id: victim.proposal.id, scopeId: victim.scope.id })).status).toBe(
      "accepted",
    );
  });

  it("domain reads by id: a thread, a scope or a proposal of a scope without a grant is refused exactly as an unknown id", async () => {
    const victim = await scopeWithProposal();
    const thread = await createThread(SYSTEM, { scopeId: victim.scope.id, name: "secrets" });
    const stranger = await makeAgent();
    const reader = await makeAgent({ [victim.scope.id]: "read" });
    const caught = async (p: Promise<unknown>) => {
      try {
        await p;
        return null;
      } catch (error) {
        const e = error as { code: string; message: string; details?: unknown };
        return { code: e.code, message: e.message, details: e.details };
      }
    };
    const unknown = randomUUID();
    expect(await caught(getThread(stranger, { threadId: thread.id }))).toEqual(
      await caught(getThread(stranger, { threadId: unknown })),
    );
    const theirs = await caught(acceptProposal(stranger, { id: victim.proposal.id }));
    expect(theirs?.code).toBe("NOT_FOUND");
    expect(JSON.stringify(theirs)).not.toContain(victim.scope.name);
    expect(JSON.stringify(theirs).replaceAll(victim.proposal.id, "<id>")).toBe(
      JSON.stringify(await caught(rejectProposal(stranger, { id: unknown, reason: "nope" }))).replaceAll(
        unknown,
        "<id>",
      ),
    );
    expect(await caught(listThreads(stranger, { scopeId: victim.scope.id }))).toEqual(
      await caught(listThreads(stranger, { scopeId: unknown })),
    );
    // A reader may know the scope: it is refused the write, naming the grant it lacks.
    const write = await caught(acceptProposal(reader, { id: victim.proposal.id }));
    expect(write?.code).toBe("SCOPE_ACCESS_DENIED");
    expect(write?.message).toContain(`no write grant for scope "${victim.scope.name}"`);
  });

  it("qm://memory/{id} of another scope reads as a missing one, and a merge's sources in another scope stay unnamed", async () => {
    const theirs = await makeScope();
    const secret = await remember(theirs.id, "The vault key is under the blue mug.");
    const mine = await makeScope();
    const own = await remember(mine.id, "My own note.");
    const { token } = await tokenFor({ [mine.id]: "read" });
    const unknown = randomUUID();
    const hidden = await callRpc(mcp.url, token, "resources/read", { uri: `qm://memory/${secret.id}` });
    const missing = await callRpc(mcp.url, token, "resources/read", { uri: `qm://memory/${unknown}` });
    expect(JSON.stringify(hidden)).not.toContain("vault key");
    expect(JSON.stringify(hidden)).not.toContain(theirs.name);
    expect(JSON.stringify(hidden).replaceAll(secret.id, "<id>")).toBe(
      JSON.stringify(missing).replaceAll(unknown, "<id>"),
    );

    // Past the import's checks, as a bug or a hand-written row would put it.
    const db = await getDb();
    await db.memory.update({ where: { id: own.id }, data: { mergedFrom: [secret.id] } });
    const read = await getMemory(SYSTEM, { id: own.id });
    expect(read.mergedFrom).toEqual([{ id: secret.id, title: "", kind: null, erasedAt: null, occurredAt: null }]);
  });

  it("a working scope whose grant is gone refuses the next call without naming it", async () => {
    const secretName = `acquisition-${randomUUID().slice(0, 8)}`;
    const secretScope = await makeScope(secretName);
    const open = await makeScope();
    const { agent, token } = await tokenFor({ [secretScope.id]: "write", [open.id]: "read" });
    const configured = await callTool(mcp.url, token, "configure_scope", { scope: secretName });
    expect(configured.result?.isError).toBeFalsy();
    // Removed past revokeScope (which also clears working scopes), as another path might.
    const db = await getDb();
    await db.scopeGrant.deleteMany({ where: { scopeId: secretScope.id, identityId: agent.identityId } });
    const refused = await callTool(mcp.url, token, "search", { query: "anything" });
    expect(refused.result?.isError).toBe(true);
    const said = JSON.stringify(refused);
    expect(said).toContain("SCOPE_ACCESS_DENIED");
    expect(said).toContain("working scope");
    expect(said).not.toContain(secretName);
    // Moving on names only what it may still use.
    const moved = await callTool(mcp.url, token, "configure_scope", { scope: open.name });
    expect(JSON.stringify(moved)).not.toContain(secretName);
  });
});
