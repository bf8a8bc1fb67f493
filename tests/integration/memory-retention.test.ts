/**
 * Retention rules: a curator previews what a rule removes, saves it with that preview's
 * digest, and the memory scheduler erases exactly those memories — never a pinned one — with
 * an audit entry each. And the consolidator proposes content-free memories for discard.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createMemory } from "@/server/domain/memory/memories";
import { applyRetention } from "@/server/domain/memory/retention";
import { memoryRound } from "@/server/domain/memory/scheduler";
import { pinThreadMember } from "@/server/domain/memory/threads";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { makeScope } from "../helpers/memory";

withTestDatabase();

const DAY = 86_400_000;

async function aged(scopeId: string, kind: "handoff" | "debrief" | "note", body: string, daysOld: number) {
  const m = await createMemory(SYSTEM, { scopeId, kind, body, threads: ["log"] });
  const db = await getDb();
  await db.memory.update({ where: { id: m.id }, data: { recordedAt: new Date(Date.now() - daysOld * DAY) } });
  return m.id;
}

describe("retention", () => {
  it("erases exactly the previewed memories, keeps pinned ones and other kinds, and audits each removal", async () => {
    const scope = await makeScope();
    const other = await makeScope();
    const db = await getDb();
    const oldA = await aged(scope.id, "handoff", "Handoff: the queue is drained.", 120);
    const oldB = await aged(scope.id, "handoff", "Handoff: cert renewal is half done.", 91);
    const pinned = await aged(scope.id, "handoff", "Handoff: never delete the audit bucket.", 200);
    const recent = await aged(scope.id, "handoff", "Handoff: rotate keys tomorrow.", 10);
    const oldDebrief = await aged(scope.id, "debrief", "Debrief: the release went out.", 300);
    const elsewhere = await aged(other.id, "handoff", "Handoff in another scope.", 300);
    // Its occurredAt is the writer's to choose; age counts from when it was stored.
    const future = await createMemory(SYSTEM, {
      scopeId: scope.id,
      kind: "handoff",
      body: "Handoff dated in the future.",
      occurredAt: new Date(Date.now() + 1000 * DAY),
    });
    await db.memory.update({ where: { id: future.id }, data: { recordedAt: new Date(Date.now() - 100 * DAY) } });
    const log = await db.thread.findFirstOrThrow({ where: { scopeId: scope.id, name: "log" } });
    await pinThreadMember(SYSTEM, { threadId: log.id, memoryId: pinned, pinned: true });

    const curator = await makeUser("curator");
    const console = callerFor(curator.actor);
    const preview = await console.retention.preview({ scopeId: scope.id, kind: "handoff", days: 90 });
    expect(preview).toMatchObject({ total: 3, listed: 3, pinnedKept: 1 });
    expect(preview.items.map((i) => i.id)).toEqual([oldA, future.id, oldB]);

    // Saving needs that preview: a wrong digest, or a memory aging in since, is refused.
    await expect(
      console.retention.save({ scopeId: scope.id, kind: "handoff", days: 90, previewDigest: "0".repeat(32) }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      console.retention.save({ scopeId: scope.id, kind: "handoff", days: 30, previewDigest: preview.digest }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const viewer = await makeUser("viewer");
    await expect(
      callerFor(viewer.actor).retention.preview({ scopeId: scope.id, kind: "handoff", days: 90 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(console.retention.preview({ scopeId: scope.id, kind: "handoff", days: 0 })).rejects.toThrow(
      /days must be at least 1/,
    );
    await console.retention.save({ scopeId: scope.id, kind: "handoff", days: 90, previewDigest: preview.digest });
    expect(
      await db.auditEvent.findFirstOrThrow({ where: { action: "retention.save", targetId: scope.id } }),
    ).toMatchObject({ actorId: curator.user.id, details: { kind: "handoff", days: 90, removesNow: 3 } });
    expect(await console.retention.list({ scopeId: scope.id })).toMatchObject([{ kind: "handoff", days: 90 }]);

    // Nothing is removed by saving: the scheduler does it.
    expect(await db.memory.count({ where: { scopeId: scope.id, erasedAt: { not: null } } })).toBe(0);
    await memoryRound();

    const erased = await db.memory.findMany({
      where: { erasedAt: { not: null } },
      select: { id: true, body: true, erasureReason: true },
    });
    expect(new Set(erased.map((m) => m.id))).toEqual(new Set(preview.items.map((i) => i.id)));
    for (const m of erased) {
      expect(m.body).toBeNull();
      expect(m.erasureReason).toBe("Retention: handoff memories are kept 90 days.");
    }
    for (const kept of [pinned, recent, oldDebrief, elsewhere])
      expect((await db.memory.findUniqueOrThrow({ where: { id: kept } })).body).not.toBeNull();
    // Gone from search too.
    const found = await console.memories.search({ scopeId: scope.id, query: "queue drained cert renewal" });
    expect(found.hits.map((h) => h.id)).not.toContain(oldA);

    const audit = await db.auditEvent.findMany({ where: { action: "memory.expire" }, orderBy: { targetId: "asc" } });
    expect(audit.map((a) => a.targetId)).toEqual([...preview.items.map((i) => i.id)].sort());
    for (const a of audit)
      expect(a).toMatchObject({ actorType: "system", targetLabel: scope.name, details: { kind: "handoff", days: 90 } });

    // Another round has nothing left to do; a new preview lists nothing.
    expect(await applyRetention()).toEqual({ erased: 0 });
    expect(await db.auditEvent.count({ where: { action: "memory.expire" } })).toBe(3);
    expect((await console.retention.preview({ scopeId: scope.id, kind: "handoff", days: 90 })).total).toBe(0);

    await console.retention.delete({ scopeId: scope.id, kind: "handoff" });
    expect(await console.retention.list({ scopeId: scope.id })).toEqual([]);
    expect(await db.auditEvent.count({ where: { action: "retention.delete", targetId: scope.id } })).toBe(1);
  });

  it("proposes content-free memories for discard, and leaves short ones that say something", async () => {
    const scope = await makeScope();
    const write = (body: string) => createMemory(SYSTEM, { scopeId: scope.id, body }).then((m) => m.id);
    const ok = await write("ok");
    const thanks = await write("Thanks, got it 👍");
    const soundsGood = await write("Sounds good, will do!");
    const meaningful = await write("ok so DNS broke the deploy");
    const short = await write("Use port 5433.");
    const curator = callerFor((await makeUser("curator")).actor);
    await curator.consolidator.run({ scopeId: scope.id });
    const proposals = await curator.proposals.list({ scopeId: scope.id, kind: "discard" });
    const proposed = proposals.items.filter(
      (p) => p.evidence && (p.evidence as { reason?: string }).reason === "no_content",
    );
    expect(new Set(proposed.map((p) => p.memoryIds[0]))).toEqual(new Set([ok, thanks, soundsGood]));
    expect(proposed.flatMap((p) => p.memoryIds)).not.toContain(meaningful);
    expect(proposed.flatMap((p) => p.memoryIds)).not.toContain(short);
  });
});
