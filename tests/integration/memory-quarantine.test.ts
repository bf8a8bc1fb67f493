/**
 * Quarantine (agentWrites: review) end to end: an agent's write through /mcp (real HTTP, the
 * SDK's Client) is seen by its writer and curators and by no other identity — through no
 * tool, resource, prompt or console procedure — until a curator accepts its admit proposal;
 * rejecting it discards it unseen. Decision 0090.
 */

import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createToken } from "@/server/domain/identities/tokens";
import { createMemory } from "@/server/domain/memory/memories";
import { exportScope } from "@/server/domain/memory/portable";
import { acceptProposal } from "@/server/domain/memory/proposals";
import { pinThreadMember } from "@/server/domain/memory/threads";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { mcpRoute } from "../helpers/mcp-route";
import { makeAgent, makeScope } from "../helpers/memory";

withTestDatabase();
const mcp = mcpRoute();

async function agentWithToken(grants: Record<string, "read" | "write">) {
  const agent = await makeAgent(grants);
  const { value } = await createToken(SYSTEM, { identityId: agent.identityId, name: "mcp" });
  const db = await getDb();
  const { name } = await db.agentIdentity.findUniqueOrThrow({ where: { id: agent.identityId } });
  const client = await mcp.connect(value, "quarantine-agent");
  return { agent, name, client };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result;
}
async function refused(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return textOf(result);
}
const structured = <T>(r: CallToolResult) => r.structuredContent as T;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

type Hits = { hits: { id: string; quarantined: boolean }[] };
type Brief = {
  decisions: { id: string }[];
  pinned: { id: string }[];
  handoffs: { id: string }[];
  openThreads: { name: string; members: number }[];
  pendingProposals: { total: number; items: { kind: string }[] };
};
type Facts = { facts: { value: string; memoryId: string }[] };

/** Everything an identity could learn `id` through, as one record; `word` is in its body. */
async function whatItSees(client: Client, scope: string, id: string, word: string) {
  const search = structured<Hits>(await call(client, "search", { scope, query: word }));
  const listed = structured<Hits>(await call(client, "search", { scope, query: "" }));
  const read = structured<{ memories: { id: string }[]; missing: string[] }>(
    await call(client, "get_memories", { ids: [id] }),
  );
  const resource = await client.readResource({ uri: `qm://memory/${id}` }).then(
    (r) => r.contents.map((c) => ("text" in c ? c.text : "")).join(""),
    (e: Error) => `refused: ${e.message}`,
  );
  const thread = JSON.parse(
    (await client.readResource({ uri: "qm://thread/deploys" })).contents
      .map((c) => ("text" in c ? c.text : ""))
      .join(""),
  ) as { members: { id: string }[]; memberCount: number };
  const facts = structured<Facts>(await call(client, "get_facts", { scope, subject: "deploy day" }));
  const prompt = await client.getPrompt({ name: "briefing", arguments: { scope, task: "deploys" } });
  return {
    searched: search.hits.some((h) => h.id === id),
    listed: listed.hits.some((h) => h.id === id),
    read: read.memories.some((m) => m.id === id),
    resource,
    threadMembers: thread.members.map((m) => m.id),
    threadCount: thread.memberCount,
    factValues: facts.facts.map((f) => f.value),
    promptMentions: JSON.stringify(prompt).includes(word),
  };
}

describe("quarantine: agentWrites review", () => {
  it("hides an agent's write from every other identity, through every tool, resource and prompt, until a curator admits it", async () => {
    const scope = await makeScope();
    const writer = await agentWithToken({ [scope.id]: "write" });
    const reader = await agentWithToken({ [scope.id]: "read" });
    const peer = await agentWithToken({ [scope.id]: "write" });
    const curator = await makeUser("curator");
    const viewer = await makeUser("viewer");
    const db = await getDb();

    // Before review: a decision everyone sees, pinned in a thread, stating a fact.
    const old = await createMemory(SYSTEM, {
      scopeId: scope.id,
      kind: "decision",
      body: "Decision: deploys go out on Tuesdays.",
      threads: ["deploys"],
      facts: [{ subject: "deploy day", predicate: "is", value: "Tuesday" }],
    });
    const threadId = (await db.thread.findFirstOrThrow({ where: { scopeId: scope.id, name: "deploys" } })).id;
    await pinThreadMember(SYSTEM, { threadId, memoryId: old.id, pinned: true });

    // A curator turns review on; the audit log keeps the change.
    const updated = await callerFor(curator.actor).scopes.update({ scopeId: scope.id, agentWrites: "review" });
    expect(updated.agentWrites).toBe("review");
    expect(
      await db.auditEvent.findFirstOrThrow({ where: { action: "scope.update", targetId: scope.id } }),
    ).toMatchObject({ actorId: curator.user.id, details: { agentWrites: { from: "direct", to: "review" } } });
    // A viewer may not change it.
    await expect(
      callerFor(viewer.actor).scopes.update({ scopeId: scope.id, agentWrites: "direct" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    // The writer corrects the decision; the tool result says it is held, and what waits.
    const remembered = await call(writer.client, "remember", {
      scope: scope.name,
      kind: "decision",
      body: "Decision: deploys move to Fridays (zanzibar freeze).",
      supersedes: old.id,
      thread: "deploys",
    });
    const held = structured<{ id: string; quarantined: boolean; threads: string[] }>(remembered);
    expect(held).toMatchObject({ quarantined: true, threads: ["deploys"] });
    expect(textOf(remembered)).toMatch(/held for review.*only once a curator admits it/);
    expect(textOf(remembered)).toContain(`Once admitted it will supersede ${old.id} and join deploys; not before.`);
    // Its fact, written with it through the domain the tool calls.
    const withFact = await createMemory(writer.agent, {
      scopeId: scope.id,
      kind: "fact",
      body: "Deploy day is Friday from now on (zanzibar).",
      facts: [{ subject: "deploy day", predicate: "is", value: "Friday" }],
    });
    expect(withFact.quarantined).toBe(true);
    const handoff = structured<{ id: string; quarantined: boolean }>(
      await call(writer.client, "handoff", {
        scope: scope.name,
        toIdentity: reader.name,
        body: "Zanzibar: over to you.",
      }),
    );
    expect(handoff.quarantined).toBe(true);
    const threadHandoff = structured<{ id: string }>(
      await call(writer.client, "handoff", {
        scope: scope.name,
        toThread: "zanzibar-followups",
        body: "Zanzibar left open.",
      }),
    );
    const debrief = await call(writer.client, "debrief", { scope: scope.name, summary: "Zanzibar session ended." });
    expect(structured<{ quarantined: boolean }>(debrief).quarantined).toBe(true);
    expect(textOf(debrief)).toContain("Held for review");

    // Nothing it asked for happened yet: the old decision is current, pinned, and its fact holds.
    expect(await db.memory.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({ supersededById: null });
    expect(await db.thread.count({ where: { scopeId: scope.id, name: "zanzibar-followups" } })).toBe(0);

    // Another identity, reading or writing, finds it through nothing.
    for (const other of [reader, peer]) {
      const sees = await whatItSees(other.client, scope.name, held.id, "zanzibar");
      expect(sees).toEqual({
        searched: false,
        listed: false,
        read: false,
        resource: expect.stringMatching(/^refused: .*NOT_FOUND/),
        threadMembers: [old.id],
        threadCount: 1,
        factValues: ["Tuesday"],
        promptMentions: false,
      });
      const brief = structured<Brief>(await call(other.client, "briefing", { scope: scope.name }));
      expect(brief.decisions.map((d) => d.id)).toEqual([old.id]);
      expect(brief.pinned.map((p) => p.id)).toEqual([old.id]);
      expect(brief.handoffs).toEqual([]);
      expect(brief.openThreads.map((t) => t.name)).toEqual(["deploys"]);
      expect(brief.openThreads[0]?.members).toBe(1);
      expect(brief.pendingProposals.total).toBe(0);
      const review = structured<{ total: number }>(
        await call(other.client, "review_proposals", { scope: scope.name, action: "list" }),
      );
      expect(review.total).toBe(0);
      const facts = structured<{ memories: unknown[]; missing: string[] }>(
        await call(other.client, "get_memories", { ids: [withFact.id, handoff.id] }),
      );
      expect(facts).toEqual({ memories: [], missing: [withFact.id, handoff.id] });
    }
    // It cannot act on it either: not file it, supersede it, or admit it.
    expect(
      await refused(peer.client, "threads", {
        scope: scope.name,
        action: "add",
        name: "deploys",
        memoryIds: [held.id],
      }),
    ).toMatch(/NOT_FOUND|Not in this thread's scope/);
    expect(
      await refused(peer.client, "remember", { scope: scope.name, body: "Replacing it.", supersedes: held.id }),
    ).toMatch(/not in this scope/);
    const admit = await db.proposal.findFirstOrThrow({
      where: { scopeId: scope.id, kind: "admit", memoryIds: { has: held.id } },
    });
    expect(
      await refused(peer.client, "review_proposals", { scope: scope.name, action: "accept", id: admit.id }),
    ).toMatch(/not found/);
    // Not even its writer may admit its own write.
    await expect(acceptProposal(writer.agent, { id: admit.id })).rejects.toMatchObject({ code: "NOT_FOUND" });

    // A console viewer sees nothing of it either; an export leaves it out.
    const asViewer = callerFor(viewer.actor);
    expect((await asViewer.memories.list({ scopeId: scope.id, query: "" })).items.map((m) => m.id)).toEqual([old.id]);
    await expect(asViewer.memories.get({ id: held.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await asViewer.proposals.list({ scopeId: scope.id })).items).toEqual([]);
    expect((await asViewer.facts.list({ scopeId: scope.id })).items.map((f) => f.value)).toEqual(["Tuesday"]);
    expect((await asViewer.scopes.get({ scopeId: scope.id })).memories).toBe(1);
    const exported = await exportScope(curator.actor, { scopeId: scope.id });
    expect(exported.jsonl).not.toContain("zanzibar");
    expect(exported.jsonl).not.toContain("Zanzibar");

    // The writer sees its own write, marked held.
    const mine = structured<Hits>(await call(writer.client, "search", { scope: scope.name, query: "zanzibar" }));
    expect(mine.hits.find((h) => h.id === held.id)?.quarantined).toBe(true);
    const mineRead = await writer.client.readResource({ uri: `qm://memory/${held.id}` });
    expect(JSON.stringify(mineRead)).toContain("Fridays");
    expect(textOf(await call(writer.client, "get_memories", { ids: [held.id] }))).toContain("held for review");

    // Curators see it and its admit proposal, with what admitting will do.
    const asCurator = callerFor(curator.actor);
    const curatorList = await asCurator.memories.list({ scopeId: scope.id, query: "zanzibar" });
    expect(curatorList.items.find((m) => m.id === held.id)?.quarantined).toBe(true);
    const queue = await asCurator.proposals.list({ scopeId: scope.id, kind: "admit" });
    // The correction, the fact, two handoffs and the debrief's summary.
    expect(queue.items).toHaveLength(5);
    expect(queue.items.find((p) => p.id === admit.id)).toMatchObject({
      memories: [expect.objectContaining({ id: held.id, quarantined: true })],
      evidence: { supersedes: old.id, threads: ["deploys"] },
    });

    // Admitted: from now on everyone finds it, and what it asked for is done.
    const accepted = await asCurator.proposals.decide({ ids: queue.items.map((p) => p.id), decision: "accept" });
    expect(accepted).toMatchObject({ decided: 5, failed: 0 });
    const sees = await whatItSees(reader.client, scope.name, held.id, "zanzibar");
    expect(sees).toMatchObject({
      searched: true,
      listed: true,
      read: true,
      resource: expect.stringContaining("Fridays"),
      threadMembers: [held.id],
      factValues: ["Friday"],
      promptMentions: false,
    });
    const brief = structured<Brief>(await call(reader.client, "briefing", { scope: scope.name }));
    expect(brief.decisions.map((d) => d.id)).toEqual([held.id]);
    expect(brief.pinned.map((p) => p.id)).toEqual([held.id]);
    expect(brief.handoffs.map((h) => h.id)).toEqual([handoff.id]);
    expect(brief.openThreads.map((t) => t.name)).toContain("zanzibar-followups");
    expect(await db.handoff.count({ where: { memoryId: threadHandoff.id, toThreadId: { not: null } } })).toBe(1);
    expect(await db.memory.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({ supersededById: held.id });
    expect(await db.memory.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      quarantined: false,
      admittedBy: curator.user.email,
    });
    expect(
      await db.auditEvent.findFirstOrThrow({ where: { action: "memory.admit", targetId: held.id } }),
    ).toMatchObject({ actorId: curator.user.id, details: { supersedes: old.id, supersession: "applied" } });
  });

  it("a curator rejects an admission (one, or in bulk): the memory is discarded and stays unseen by others; the writer sees it discarded", async () => {
    const scope = await makeScope();
    await callerFor((await makeUser("curator")).actor).scopes.update({ scopeId: scope.id, agentWrites: "review" });
    const writer = await agentWithToken({ [scope.id]: "write" });
    const reader = await agentWithToken({ [scope.id]: "read" });
    const curator = callerFor((await makeUser("curator")).actor);
    const ids: string[] = [];
    for (const word of ["quokka", "wombat", "dingo", "emu"])
      ids.push(structured<{ id: string }>(await call(writer.client, "remember", { body: `The ${word} runbook.` })).id);
    const queue = (await curator.proposals.list({ scopeId: scope.id, kind: "admit" })).items;
    const proposalOf = (id: string) => queue.find((p) => p.memoryIds[0] === id)?.id as string;

    // A reason is required to reject, as for every kind.
    await expect(
      curator.proposals.decide({ ids: [proposalOf(ids[0] as string)], decision: "reject" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await curator.proposals.reject({ id: proposalOf(ids[0] as string), reason: "Not how we run it." });
    const bulk = await curator.proposals.decide({
      ids: [proposalOf(ids[1] as string), proposalOf(ids[2] as string)],
      decision: "reject",
      reason: "Planted.",
    });
    expect(bulk).toMatchObject({ decided: 2, failed: 0 });
    await curator.proposals.accept({ id: proposalOf(ids[3] as string) });

    const seen = structured<Hits>(await call(reader.client, "search", { query: "runbook" })).hits.map((h) => h.id);
    expect(seen).toEqual([ids[3]]);
    const readBack = structured<{ missing: string[] }>(await call(reader.client, "get_memories", { ids }));
    expect(readBack.missing).toEqual(ids.slice(0, 3));
    // The writer learns it was refused: discarded, still held.
    const own = structured<{ memories: { id: string; state: string; quarantined: boolean }[] }>(
      await call(writer.client, "get_memories", { ids: [ids[0]] }),
    );
    expect(own.memories[0]).toMatchObject({ state: "discarded", quarantined: true });
    // A decided admission is not decided again.
    await expect(curator.proposals.accept({ id: proposalOf(ids[0] as string) })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const db = await getDb();
    expect(
      await db.auditEvent.count({ where: { action: "proposal.reject", targetLabel: `${scope.name}: admit` } }),
    ).toBe(3);
  });

  it("in a direct scope an agent's write is seen at once and nothing waits for admission", async () => {
    const scope = await makeScope();
    const writer = await agentWithToken({ [scope.id]: "write" });
    const reader = await agentWithToken({ [scope.id]: "read" });
    const written = await call(writer.client, "remember", { body: "Capybara cache warms at nine." });
    const { id, quarantined } = structured<{ id: string; quarantined: boolean }>(written);
    expect(quarantined).toBe(false);
    expect(textOf(written)).not.toContain("held for review");
    expect(structured<Hits>(await call(reader.client, "search", { query: "capybara" })).hits.map((h) => h.id)).toEqual([
      id,
    ]);
    const db = await getDb();
    expect(await db.proposal.count({ where: { scopeId: scope.id, kind: "admit" } })).toBe(0);
  });
});
