/**
 * The consolidator proposes and never changes anything itself; it never merges a
 * contradiction, files nothing new on a second run, never re-proposes a rejected set, and
 * accepting applies a proposal in one transaction, keeping memberships, pins and history.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { contradiction } from "@/server/domain/memory/contradiction";
import { getMemory, supersedeMemory } from "@/server/domain/memory/memories";
import { acceptProposal, decideProposals, listProposals, rejectProposal } from "@/server/domain/memory/proposals";
import { searchMemories } from "@/server/domain/memory/search";
import { addThreadMembers, createThread, getThread, pinThreadMember } from "@/server/domain/memory/threads";
import { withTestDatabase } from "../helpers/db";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();

const pending = async (scopeId: string) => (await listProposals(SYSTEM, { scopeId })).items;

async function bodiesOf(scopeId: string) {
  const db = await getDb();
  return db.memory.findMany({ where: { scopeId }, orderBy: { seq: "asc" }, select: { id: true, body: true } });
}

describe("the consolidator", () => {
  it("proposes discarding exact duplicates, merging near-duplicates and superseding outdated facts, changing nothing", async () => {
    const scope = await makeScope();
    const original = await remember(scope.id, "The on-call rotation hands over on Mondays at 10:00.");
    const copy = await remember(scope.id, "the on-call rotation   hands over on Mondays at 10:00.");
    const short = await remember(
      scope.id,
      "Payments are retried three times with exponential back-off before the order is cancelled.",
    );
    const fuller = await remember(
      scope.id,
      "Payments are retried three times with exponential back-off before the order is cancelled and the customer is emailed.",
    );
    const old = await remember(scope.id, "Primary region is eu-west-1.", {
      occurredAt: new Date("2026-01-01T00:00:00Z"),
      facts: [{ subject: "primary region", predicate: "is", value: "eu-west-1" }],
    });
    const newer = await remember(scope.id, "We moved the primary region to eu-central-1.", {
      occurredAt: new Date("2026-06-01T00:00:00Z"),
      facts: [{ subject: "Primary region", predicate: "is", value: "eu-central-1" }],
    });
    const noise = await remember(scope.id, "ok");
    const before = await bodiesOf(scope.id);

    const report = await consolidateScope(scope.id);
    expect(report.byKind).toEqual({ merge: 1, supersede: 1, discard: 2 });
    const proposals = await pending(scope.id);
    const byReason = Object.fromEntries(proposals.map((p) => [(p.evidence as { reason: string }).reason, p]));
    expect(byReason.exact_duplicate?.memoryIds).toEqual([copy.id, original.id]);
    expect(byReason.near_duplicate?.memoryIds.sort()).toEqual([short.id, fuller.id].sort());
    expect(byReason.near_duplicate?.evidence).toMatchObject({ keepWordingOf: fuller.id });
    expect(byReason.newer_fact?.memoryIds).toEqual([old.id, newer.id]);
    expect(byReason.no_content?.memoryIds).toEqual([noise.id]);
    for (const p of proposals) expect(p.rationale.length).toBeGreaterThan(20);

    // Filing proposals changed no memory.
    expect(await bodiesOf(scope.id)).toEqual(before);
    expect((await getMemory(SYSTEM, { id: old.id })).state).toBe("current");

    // Idempotent: a second pass files nothing new.
    expect((await consolidateScope(scope.id)).filed).toBe(0);
    expect((await pending(scope.id)).length).toBe(4);
  });

  it("never merges two memories that contradict each other", async () => {
    const scope = await makeScope();
    await remember(scope.id, "The deploy target for the billing service is staging.");
    await remember(scope.id, "The deploy target for the billing service is production.");
    await remember(scope.id, "Feature flags are evaluated on the server.");
    await remember(scope.id, "Feature flags are not evaluated on the server.");
    await remember(scope.id, "The API allows 100 requests per minute per key.");
    await remember(scope.id, "The API allows 250 requests per minute per key.");
    await remember(scope.id, "Cache TTL for sessions.", {
      facts: [{ subject: "session cache", predicate: "ttl", value: "15m" }],
    });
    await remember(scope.id, "Cache TTL for sessions.", {
      facts: [{ subject: "session cache", predicate: "ttl", value: "30m" }],
    });
    const report = await consolidateScope(scope.id);
    expect(report.byKind.merge).toBe(0);
    expect((await pending(scope.id)).filter((p) => p.kind === "merge")).toEqual([]);
    // Each pair is told apart for a reason a reviewer would give.
    expect(contradiction("target is staging", "target is production")).toMatch(/different value/);
    expect(contradiction("flags are evaluated", "flags are not evaluated")).toMatch(/negates/);
    expect(contradiction("100 requests", "250 requests")).toMatch(/different numbers/);
    expect(contradiction("We ship on Fridays.", "We ship on Fridays after QA signs off.")).toBeNull();
  });

  it("accepting a merge writes one memory that supersedes both and keeps every membership and pin", async () => {
    const scope = await makeScope();
    const a = await remember(scope.id, "Incident reviews happen within five working days of the incident.", {
      tags: ["process"],
    });
    const b = await remember(
      scope.id,
      "Incident reviews happen within five working days of the incident, led by the on-call engineer.",
      {
        tags: ["incidents"],
      },
    );
    const ops = await createThread(SYSTEM, { scopeId: scope.id, name: "ops" });
    const handbook = await createThread(SYSTEM, { scopeId: scope.id, name: "handbook" });
    await addThreadMembers(SYSTEM, { threadId: ops.id, memoryIds: [a.id, b.id] });
    await pinThreadMember(SYSTEM, { threadId: ops.id, memoryId: a.id, pinned: true });
    await addThreadMembers(SYSTEM, { threadId: handbook.id, memoryIds: [b.id] });

    await consolidateScope(scope.id);
    const [merge] = await pending(scope.id);
    expect(merge?.kind).toBe("merge");
    const accepted = await acceptProposal(SYSTEM, { id: merge?.id as string });
    const merged = await getMemory(SYSTEM, { id: accepted.resultMemoryId as string });
    // The fuller wording stands for both.
    expect(merge?.evidence).toMatchObject({ keepWordingOf: b.id });
    expect(merged.body).toBe(
      "Incident reviews happen within five working days of the incident, led by the on-call engineer.",
    );
    expect(merged.tags.sort()).toEqual(["incidents", "process"]);
    expect(merged.mergedFrom.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    for (const id of [a.id, b.id])
      expect(await getMemory(SYSTEM, { id })).toMatchObject({ state: "superseded", supersededById: merged.id });

    const opsIndex = await getThread(SYSTEM, { threadId: ops.id });
    expect(opsIndex.members.map((m) => [m.id, m.pinned])).toEqual([[merged.id, true]]);
    expect((await getThread(SYSTEM, { threadId: handbook.id })).members.map((m) => m.id)).toEqual([merged.id]);
    expect(
      (await searchMemories(SYSTEM, { scopeId: scope.id, query: "incident review" })).hits.map((h) => h.id),
    ).toEqual([merged.id]);
    expect((await listProposals(SYSTEM, { scopeId: scope.id, status: "accepted" })).items[0]).toMatchObject({
      status: "accepted",
      resultMemoryId: merged.id,
      decidedByLabel: "Quartermaster",
    });
  });

  it("refuses a proposal whose memories changed since it was filed with PROPOSAL_STALE, and keeps the refusal", async () => {
    const scope = await makeScope();
    const a = await remember(scope.id, "Logs are kept for 30 days.");
    await remember(scope.id, "Logs are kept for 30 days.");
    await consolidateScope(scope.id);
    const [proposal] = await pending(scope.id);
    // Someone corrects the original meanwhile.
    await supersedeMemory(SYSTEM, { memoryId: a.id, body: "Logs are kept for 90 days." });
    expect((await listProposals(SYSTEM, { scopeId: scope.id })).items[0]?.stale).toBe(true);
    await expect(acceptProposal(SYSTEM, { id: proposal?.id as string })).rejects.toMatchObject({
      code: "PROPOSAL_STALE",
    });
    expect((await listProposals(SYSTEM, { scopeId: scope.id, status: "stale" })).items.map((p) => p.id)).toEqual([
      proposal?.id,
    ]);
    expect(await pending(scope.id)).toEqual([]);
  });

  it("a rejected proposal is kept with who and why, and its memories are not proposed again", async () => {
    const scope = await makeScope();
    await remember(scope.id, "Design reviews need a written RFC.");
    await remember(scope.id, "Design reviews need a written RFC.");
    await remember(scope.id, "Release notes go to the #releases channel.");
    await remember(scope.id, "Release notes go to the #releases channel.");
    await consolidateScope(scope.id);
    const [first, second] = await pending(scope.id);
    await rejectProposal(SYSTEM, { id: first?.id as string, reason: "They came from two different teams." });
    const bulk = await decideProposals(SYSTEM, {
      ids: [second?.id as string, first?.id as string],
      decision: "accept",
    });
    expect(bulk.results.map((r) => [r.ok, r.code ?? null])).toEqual([
      [true, null],
      [false, "CONFLICT"],
    ]);
    expect((await consolidateScope(scope.id)).filed).toBe(0);
    const rejected = (await listProposals(SYSTEM, { scopeId: scope.id, status: "rejected" })).items;
    expect(rejected[0]).toMatchObject({
      decisionReason: "They came from two different teams.",
      decidedByLabel: "Quartermaster",
    });
  });
});
