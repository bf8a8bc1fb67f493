/**
 * briefing: what an agent starting work in a scope should know, in one bounded read —
 * pinned memories, recent decisions, open threads, pending proposals and the handoffs
 * addressed to it. Every list holds at most BRIEFING_ITEMS entries and every body at most
 * BRIEFING_BODY_CHARS characters (marked truncated; get_memories reads the whole body), so
 * a briefing stays small however large the scope grows. Delivering handoffs is its one write.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { parseInput } from "../validation";
import { memoryVisible, proposalVisible, requireScope } from "./access";
import { type DeliveredHandoff, takeHandoffs } from "./handoffs";
import { ZBriefingInput } from "./schemas";
import { truncate } from "./text";

export async function briefScope(actor: Actor, raw: unknown) {
  const input = parseInput(ZBriefingInput, raw);
  const scope = await requireScope(actor, input.scopeId, "read");
  const db = await getDb();
  const items = LIMITS.BRIEFING_ITEMS.value;
  const chars = LIMITS.BRIEFING_BODY_CHARS.value;
  const thread = input.thread
    ? await db.thread.findUnique({
        where: { scopeId_name: { scopeId: scope.id, name: input.thread } },
        select: { id: true, name: true },
      })
    : null;
  if (input.thread && !thread)
    throw new DomainError("NOT_FOUND", `thread: scope "${scope.name}" has no thread named "${input.thread}".`, {
      field: "thread",
    });

  // A flagged memory may carry instructions planted for the agent reading this: briefing is
  // read unasked at the start of work, so it waits for a curator to clear it.
  // Others' quarantined writes are not the actor's to see (access.ts).
  const current = { erasedAt: null, supersededById: null, discardedAt: null, flagged: false, ...memoryVisible(actor) };
  const [pinned, decisions, threads, proposals, proposalTotal] = await Promise.all([
    db.threadMember.findMany({
      where: {
        pinnedAt: { not: null },
        memory: current,
        thread: thread ? { id: thread.id } : { scopeId: scope.id, archivedAt: null },
      },
      orderBy: [{ pinnedAt: "desc" }, { memoryId: "asc" }],
      take: items,
      select: {
        thread: { select: { name: true } },
        memory: { select: { id: true, kind: true, body: true, occurredAt: true } },
      },
    }),
    db.memory.findMany({
      where: {
        scopeId: scope.id,
        kind: "decision",
        ...current,
        ...(thread ? { memberships: { some: { threadId: thread.id } } } : {}),
      },
      orderBy: [{ occurredAt: "desc" }, { seq: "desc" }],
      take: items,
      select: { id: true, body: true, occurredAt: true },
    }),
    db.thread.findMany({
      where: { scopeId: scope.id, archivedAt: null },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      take: items,
      select: {
        name: true,
        updatedAt: true,
        _count: { select: { members: { where: { memory: memoryVisible(actor) } } } },
      },
    }),
    db.proposal.findMany({
      where: { scopeId: scope.id, status: "pending", ...proposalVisible(actor) },
      orderBy: [{ score: "desc" }, { filedAt: "asc" }],
      take: items,
      select: { id: true, kind: true, rationale: true, memoryIds: true },
    }),
    db.proposal.count({ where: { scopeId: scope.id, status: "pending", ...proposalVisible(actor) } }),
  ]);

  let handoffs: DeliveredHandoff[] = [];
  let handoffsWaiting = 0;
  if (actor.kind === "agent") {
    const taken = await db.$transaction((tx) => takeHandoffs(tx, actor, scope.id, thread?.id ?? null));
    handoffs = taken.handoffs;
    handoffsWaiting = taken.waiting;
  }

  const cut = (body: string | null) => truncate(body ?? "", chars);
  return {
    scope: scope.name,
    thread: thread?.name ?? null,
    pinned: pinned.map((p) => ({
      id: p.memory.id,
      kind: p.memory.kind,
      thread: p.thread.name,
      occurredAt: p.memory.occurredAt,
      ...bodyOf(cut(p.memory.body)),
    })),
    decisions: decisions.map((d) => ({ id: d.id, occurredAt: d.occurredAt, ...bodyOf(cut(d.body)) })),
    openThreads: threads.map((t) => ({ name: t.name, members: t._count.members, updatedAt: t.updatedAt })),
    pendingProposals: {
      total: proposalTotal,
      items: proposals.map((p) => ({ id: p.id, kind: p.kind, rationale: p.rationale, memoryIds: p.memoryIds })),
    },
    handoffs,
    handoffsWaiting,
  };
}

const bodyOf = (t: { text: string; truncated: boolean }) => ({ body: t.text, truncated: t.truncated });
