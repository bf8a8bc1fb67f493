/**
 * Erasure (a legal request) takes the body out of every table and index — the memory, a
 * merge built from it, their facts, their full-text entries — and leaves tombstones and an
 * audit record saying who and why. Re-importing an export taken before the erasure brings
 * nothing of it back: tombstones win.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { listAuditEvents } from "@/server/domain/audit/list";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { eraseMemory } from "@/server/domain/memory/erase";
import { listFacts } from "@/server/domain/memory/facts";
import { getMemory } from "@/server/domain/memory/memories";
import { exportScope, importScope } from "@/server/domain/memory/portable";
import { acceptProposal, listProposals } from "@/server/domain/memory/proposals";
import { searchMemories } from "@/server/domain/memory/search";
import { getThreadByName, removeThreadMembers } from "@/server/domain/memory/threads";
import { makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { makeScope, remember, withoutSignature } from "../helpers/memory";
import { tracesOf } from "../helpers/traces";

withTestDatabase();

describe("erasure", () => {
  it("removes the body from every table and index, with merges built from it, and keeps tombstones", async () => {
    const admin = await makeUser("admin");
    const scope = await makeScope();
    const secret = "zanzibarquokka";
    const erased = await remember(
      scope.id,
      `Customer ${secret} asked us to call back on Tuesday about the invoice dispute.`,
      {
        tags: [secret],
        threads: ["billing"],
        facts: [{ subject: "ticket 4711", predicate: "contact", value: secret }],
      },
    );
    // The same without the name: a near-duplicate the erased one only adds to, so they merge.
    const twin = await remember(scope.id, "Customer asked us to call back on Tuesday about the invoice dispute.");
    const unrelated = await remember(scope.id, "The office is closed on public holidays.");

    await consolidateScope(scope.id);
    const merge = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find((p) => p.kind === "merge");
    if (!merge) throw new Error("expected a merge proposal for the near-duplicates");
    const accepted = await acceptProposal(SYSTEM, { id: merge.id });
    const mergedId = accepted.resultMemoryId as string;
    // A newer contact for the ticket: the consolidator proposes superseding the merged
    // memory, quoting the old value (the erased name) in its evidence.
    await remember(scope.id, "The account owner handles ticket 4711 from now on.", {
      occurredAt: new Date(Date.now() + 60_000),
      facts: [{ subject: "ticket 4711", predicate: "contact", value: "the account owner" }],
    });
    await consolidateScope(scope.id);
    const supersede = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find((p) => p.kind === "supersede");
    expect(JSON.stringify(supersede?.evidence)).toContain(secret);
    expect((await tracesOf(secret)).length).toBeGreaterThan(0);

    const result = await eraseMemory(admin.actor, { id: erased.id, reason: "GDPR request #4711" });
    expect(new Set(result.erased)).toEqual(new Set([erased.id, mergedId]));

    // Nothing of the body is left anywhere (the audit details name ids and the reason only).
    expect(await tracesOf(secret)).toEqual([]);
    expect(await tracesOf("invoice dispute")).toEqual(
      // The twin was not erased; its own words stay, and it is current again.
      ["memory.body", "memory.title"],
    );
    expect((await getMemory(SYSTEM, { id: twin.id })).state).toBe("current");
    expect((await searchMemories(SYSTEM, { scopeId: scope.id, query: secret })).hits).toEqual([]);

    // Tombstones say when, by whom and why; the merge result says which memory it came from.
    const tombstone = await getMemory(SYSTEM, { id: erased.id });
    expect(tombstone).toMatchObject({
      state: "erased",
      body: null,
      erasedBy: admin.email,
      erasureReason: "GDPR request #4711",
    });
    const mergedTombstone = await getMemory(SYSTEM, { id: mergedId });
    expect(mergedTombstone.state).toBe("erased");
    expect(mergedTombstone.erasureReason).toContain(erased.id);
    expect(mergedTombstone.mergedFrom.map((m) => m.id).sort()).toEqual([erased.id, twin.id].sort());

    const audit = await listAuditEvents(admin.actor, { action: "memory.erase" });
    expect(audit.items[0]).toMatchObject({
      actorLabel: admin.email,
      targetId: erased.id,
      details: { reason: "GDPR request #4711" },
    });
    expect((await getMemory(SYSTEM, { id: unrelated.id })).state).toBe("current");
  });
});

describe("re-importing an export taken before an erasure", () => {
  it("restores nothing of the erased memory: no body, facts, memberships, search entries or proposal evidence", async () => {
    const admin = await makeUser("admin");
    const scope = await makeScope();
    const secret = "quillbackmarmot";
    const erased = await remember(scope.id, `Customer ${secret} is the contact for ticket 5150.`, {
      tags: [secret],
      threads: ["billing"],
      facts: [{ subject: "ticket 5150", predicate: "contact", value: secret }],
    });
    // A newer value for the same fact: the consolidator proposes the supersession, quoting the old one.
    await remember(scope.id, "The account owner handles ticket 5150 from now on.", {
      occurredAt: new Date(Date.now() + 60_000),
      facts: [{ subject: "ticket 5150", predicate: "contact", value: "the account owner" }],
    });
    await consolidateScope(scope.id);
    const proposal = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find((p) => p.kind === "supersede");
    expect(JSON.stringify(proposal?.evidence)).toContain(secret);
    const old = (await exportScope(SYSTEM, { scopeId: scope.id })).jsonl;
    expect(old).toContain(secret);

    await eraseMemory(admin.actor, { id: erased.id, reason: "GDPR request #5150" });
    // A curator then takes the tombstone out of its thread.
    const billing = await getThreadByName(SYSTEM, scope.id, "billing");
    await removeThreadMembers(SYSTEM, { threadId: billing.id, memoryIds: [erased.id] });
    expect(await tracesOf(secret)).toEqual([]);

    const again = await importScope(SYSTEM, { jsonl: old });
    const inAnHour = new Date(Date.now() + 3_600_000);
    expect(again.imported).toMatchObject({ memories: 0, facts: 0, members: 0, proposals: 0 });
    expect(again.skippedErased).toBeGreaterThan(0);
    expect(await tracesOf(secret)).toEqual([]);
    expect((await getMemory(SYSTEM, { id: erased.id })).state).toBe("erased");
    const facts = await listFacts(SYSTEM, { scopeId: scope.id, subject: "ticket 5150", asOf: inAnHour });
    expect(facts.items.map((f) => f.value)).toEqual(["the account owner"]);
    expect((await getThreadByName(SYSTEM, scope.id, "billing")).members.map((m) => m.id)).not.toContain(erased.id);
    expect((await searchMemories(SYSTEM, { scopeId: scope.id, query: secret })).hits).toEqual([]);

    // The same lines under new ids (a hand-edited file) fare no better, nor does a merge built
    // from the erased memory: it arrives erased, and what it superseded stays current.
    const lines = withoutSignature(old)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const mergeId = randomUUID();
    const laterId = randomUUID();
    const memoryLine = lines.find((l) => l.type === "memory" && l.id === erased.id) as Record<string, unknown>;
    const naming = (l: Record<string, unknown>) =>
      l.memoryId === erased.id || (Array.isArray(l.memoryIds) && l.memoryIds.includes(erased.id));
    const edited = lines.map((l) => (naming(l) ? { ...l, id: randomUUID() } : l));
    edited.push(
      { ...memoryLine, id: mergeId, mergedFrom: [erased.id], supersededById: null },
      {
        ...memoryLine,
        id: laterId,
        body: "Unrelated later note.",
        title: "Unrelated later note.",
        tags: [],
        mergedFrom: [],
        supersededById: mergeId,
        supersededAt: "2026-01-02T00:00:00.000Z",
      },
      {
        type: "thread_member",
        threadId: billing.id,
        memoryId: erased.id,
        addedAt: "2026-01-01T00:00:00.000Z",
        pinnedAt: "2026-01-01T00:00:00.000Z",
      },
    );
    const crafted = await importScope(SYSTEM, {
      jsonl: `${edited.map((l) => JSON.stringify(l)).join("\n")}\n`,
      acceptUnsigned: true,
    });
    expect(crafted.imported).toMatchObject({ memories: 2, facts: 0, proposals: 0, members: 0 });
    expect(await tracesOf(secret)).toEqual([]);
    expect(await getMemory(SYSTEM, { id: mergeId })).toMatchObject({ state: "erased", body: null });
    expect((await getMemory(SYSTEM, { id: mergeId })).erasureReason).toContain(erased.id);
    expect(await getMemory(SYSTEM, { id: laterId })).toMatchObject({ state: "current", supersededById: null });
    expect(
      (await listFacts(SYSTEM, { scopeId: scope.id, subject: "ticket 5150", asOf: inAnHour })).items.map(
        (f) => f.value,
      ),
    ).toEqual(["the account owner"]);
  });
});
