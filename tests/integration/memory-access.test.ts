/**
 * No read, write, search or proposal crosses scopes, for any actor: an Agent Identity
 * reaches only the scopes it is granted (read or write), console users by role.
 */
import { describe, expect, it } from "vitest";
import { type Actor, SYSTEM } from "@/server/actor";
import { consolidateScope, runConsolidator } from "@/server/domain/memory/consolidator";
import { listFacts } from "@/server/domain/memory/facts";
import { createMemory, getMemories, getMemory, supersedeMemory } from "@/server/domain/memory/memories";
import { exportScope } from "@/server/domain/memory/portable";
import { acceptProposal, listProposals, rejectProposal } from "@/server/domain/memory/proposals";
import { listScopes } from "@/server/domain/memory/scopes";
import { searchMemories } from "@/server/domain/memory/search";
import {
  addThreadMembers,
  createThread,
  getThread,
  listThreads,
  pinThreadMember,
} from "@/server/domain/memory/threads";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { makeAgent, makeScope, remember } from "../helpers/memory";

withTestDatabase();

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "allowed";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("memory access", () => {
  it("an identity reads only granted scopes, writes only with a write grant, and never sees another scope's memories", async () => {
    const alpha = await makeScope();
    const beta = await makeScope();
    const inAlpha = await remember(alpha.id, "The staging database password rotates every Monday.", {
      facts: [{ subject: "staging db", predicate: "rotation", value: "Monday" }],
    });
    const inBeta = await remember(beta.id, "The staging database password rotates every Friday.");
    const reader = await makeAgent({ [alpha.id]: "read" });
    const writer = await makeAgent({ [alpha.id]: "write" });
    const outsider = await makeAgent();

    // Search: same words in both scopes; each sees only its own.
    const found = await searchMemories(reader, { scopeId: alpha.id, query: "staging database password" });
    expect(found.hits.map((h) => h.id)).toEqual([inAlpha.id]);
    // A scope it may not read is not found, exactly as one that does not exist.
    expect(await refusal(searchMemories(reader, { scopeId: beta.id, query: "staging" }))).toBe("NOT_FOUND");
    expect(await refusal(searchMemories(outsider, { scopeId: alpha.id, query: "staging" }))).toBe("NOT_FOUND");

    // Reads by id: another scope's memory is not found, not merely forbidden.
    expect((await getMemory(reader, { id: inAlpha.id })).body).toContain("Monday");
    expect(await refusal(getMemory(reader, { id: inBeta.id }))).toBe("NOT_FOUND");
    const many = await getMemories(reader, { ids: [inAlpha.id, inBeta.id] });
    expect(many.memories.map((m) => m.id)).toEqual([inAlpha.id]);
    expect(many.missing).toEqual([inBeta.id]);

    // Writes.
    expect(await refusal(createMemory(reader, { scopeId: alpha.id, body: "x" }))).toBe("SCOPE_ACCESS_DENIED");
    expect(await refusal(createMemory(outsider, { scopeId: alpha.id, body: "x" }))).toBe("NOT_FOUND");
    expect(await refusal(createMemory(writer, { scopeId: beta.id, body: "x" }))).toBe("NOT_FOUND");
    expect(await refusal(supersedeMemory(reader, { memoryId: inAlpha.id, body: "x" }))).toBe("SCOPE_ACCESS_DENIED");
    expect(await refusal(supersedeMemory(writer, { memoryId: inBeta.id, body: "x" }))).toBe("NOT_FOUND");
    const written = await createMemory(writer, { scopeId: alpha.id, body: "Rotation moved to Tuesdays." });
    expect(written.scopeId).toBe(alpha.id);
    // A supersession cannot reach into another scope either.
    expect(await refusal(createMemory(writer, { scopeId: alpha.id, body: "y", supersedes: inBeta.id }))).toBe(
      "NOT_FOUND",
    );

    // Facts, threads, proposals, export, consolidator.
    expect((await listFacts(reader, { scopeId: alpha.id })).items.map((f) => f.value)).toEqual(["Monday"]);
    expect(await refusal(listFacts(reader, { scopeId: beta.id }))).toBe("NOT_FOUND");
    expect(await refusal(listThreads(outsider, { scopeId: alpha.id }))).toBe("NOT_FOUND");
    expect(await refusal(createThread(reader, { scopeId: alpha.id, name: "t" }))).toBe("SCOPE_ACCESS_DENIED");
    const betaThread = await createThread(SYSTEM, { scopeId: beta.id, name: "ops" });
    expect(await refusal(getThread(reader, { threadId: betaThread.id }))).toBe("NOT_FOUND");
    expect(await refusal(listProposals(reader, { scopeId: beta.id }))).toBe("NOT_FOUND");
    expect(await refusal(exportScope(reader, { scopeId: beta.id }))).toBe("NOT_FOUND");
    expect(await refusal(runConsolidator(reader, { scopeId: alpha.id }))).toBe("SCOPE_ACCESS_DENIED");

    // Listing scopes shows exactly the granted ones, with the access held.
    expect((await listScopes(reader)).map((s) => [s.id, s.access])).toEqual([[alpha.id, "read"]]);
    expect(await listScopes(outsider)).toEqual([]);
  });

  it("a thread never takes a member from another scope, and a proposal never spans two scopes", async () => {
    const alpha = await makeScope();
    const beta = await makeScope();
    const a = await remember(alpha.id, "Deploys need two approvals from the platform team before noon.");
    const b = await remember(beta.id, "Deploys need two approvals from the platform team before noon.");
    const thread = await createThread(SYSTEM, { scopeId: alpha.id, name: "deploys" });
    expect(await refusal(addThreadMembers(SYSTEM, { threadId: thread.id, memoryIds: [b.id] }))).toBe("NOT_FOUND");
    expect(await refusal(pinThreadMember(SYSTEM, { threadId: thread.id, memoryId: b.id, pinned: true }))).toBe(
      "NOT_FOUND",
    );
    await addThreadMembers(SYSTEM, { threadId: thread.id, memoryIds: [a.id] });
    // Identical bodies in two scopes are not duplicates of each other.
    expect((await consolidateScope(alpha.id)).filed).toBe(0);
    expect((await consolidateScope(beta.id)).filed).toBe(0);
  });

  it("console users reach memory by role: every role reads, curators and admins write, only admins erase", async () => {
    const scope = await makeScope();
    const memory = await remember(scope.id, "Quarterly review moved to the first Thursday.");
    const roles = {
      viewer: await makeUser("viewer"),
      operator: await makeUser("operator"),
      curator: await makeUser("curator"),
      admin: await makeUser("admin"),
    };
    const outcome = async (actor: Actor) => ({
      read: await refusal(searchMemories(actor, { scopeId: scope.id, query: "review" })),
      write: await refusal(createMemory(actor, { scopeId: scope.id, body: "A note." })),
      erase: await refusal(callerFor(actor).memories.erase({ id: memory.id, reason: "test of the role" })),
    });
    expect(await outcome(roles.viewer.actor)).toEqual({
      read: "allowed",
      write: "SCOPE_ACCESS_DENIED",
      erase: "FORBIDDEN",
    });
    expect(await outcome(roles.operator.actor)).toEqual({
      read: "allowed",
      write: "SCOPE_ACCESS_DENIED",
      erase: "FORBIDDEN",
    });
    expect((await outcome(roles.curator.actor)).read).toBe("allowed");
    expect((await outcome(roles.curator.actor)).write).toBe("allowed");
    expect((await outcome(roles.curator.actor)).erase).toBe("FORBIDDEN");
    expect((await outcome(roles.admin.actor)).erase).toBe("allowed");
  });

  it("proposals are decided only by those who may write the scope", async () => {
    const scope = await makeScope();
    await remember(scope.id, "Backups run nightly at 02:00 UTC.");
    await remember(scope.id, "Backups run nightly at 02:00 UTC.");
    await consolidateScope(scope.id);
    const [proposal] = (await listProposals(SYSTEM, { scopeId: scope.id })).items;
    if (!proposal) throw new Error("expected a proposal for the exact duplicate");
    const reader = await makeAgent({ [scope.id]: "read" });
    const stranger = await makeAgent();
    expect(await refusal(acceptProposal(reader, { id: proposal.id }))).toBe("SCOPE_ACCESS_DENIED");
    expect(await refusal(rejectProposal(stranger, { id: proposal.id, reason: "not mine" }))).toBe("NOT_FOUND");
    const writer = await makeAgent({ [scope.id]: "write" });
    expect((await acceptProposal(writer, { id: proposal.id })).status).toBe("accepted");
  });
});
