/**
 * Threads: named, overlapping collections of memories within one scope. A thread's index
 * (member ids, kind, time, title, pin) is cheap to read; bodies are read by id. Deleting a
 * thread keeps its members: memories live in scopes, not in threads.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { recordAudit } from "../audit/record";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { memoryVisible, requireScope, requireScopeOf, type ScopeNeed, scopeWhere } from "./access";
import {
  ZArchiveThreadInput,
  ZCreateThreadInput,
  ZListThreadsInput,
  ZPinInput,
  ZRenameThreadInput,
  ZThreadIdInput,
  ZThreadMembersInput,
  ZThreadMembersListInput,
} from "./schemas";

const THREAD = {
  id: true,
  scopeId: true,
  name: true,
  description: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The thread, if the actor may read (or write) its scope. */
async function requireThread(actor: Actor, threadId: string, need: ScopeNeed, tx?: Tx) {
  const db = tx ?? (await getDb());
  const thread = await db.thread.findUnique({ where: { id: threadId }, select: THREAD });
  const notFound = () => new DomainError("NOT_FOUND", "Thread was not found.", { field: "threadId" });
  if (!thread) throw notFound();
  const scope = await requireScopeOf(actor, thread.scopeId, need, notFound, tx);
  return { ...thread, scopeName: scope.name };
}

function conflictOnName(error: unknown, name: string): never {
  if ((error as { code?: string }).code === "P2002")
    throw new DomainError("CONFLICT", `A thread named "${name}" already exists in this scope.`, { field: "name" });
  throw error;
}

export async function createThread(actor: Actor, raw: unknown) {
  const input = parseInput(ZCreateThreadInput, raw);
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  return db
    .$transaction(async (tx) => {
      const thread = await tx.thread.create({
        data: { scopeId: scope.id, name: input.name, description: input.description },
        select: THREAD,
      });
      await recordAudit(tx, actor, {
        action: "thread.create",
        targetType: "thread",
        targetId: thread.id,
        targetLabel: `${scope.name}/${thread.name}`,
      });
      return thread;
    })
    .catch((e: unknown) => conflictOnName(e, input.name));
}

/** Finds threads of these names in the scope, creating the missing ones (memory writes name threads). */
export async function ensureThreads(tx: Tx, scopeId: string, names: string[]): Promise<{ id: string; name: string }[]> {
  const unique = [...new Set(names.map((n) => n.trim()))];
  if (!unique.length) return [];
  await tx.thread.createMany({ data: unique.map((name) => ({ scopeId, name })), skipDuplicates: true });
  return tx.thread.findMany({ where: { scopeId, name: { in: unique } }, select: { id: true, name: true } });
}

export async function renameThread(actor: Actor, raw: unknown) {
  const input = parseInput(ZRenameThreadInput, raw);
  const db = await getDb();
  return db
    .$transaction(async (tx) => {
      const thread = await requireThread(actor, input.threadId, "write", tx);
      const updated = await tx.thread.update({ where: { id: thread.id }, data: { name: input.name }, select: THREAD });
      await recordAudit(tx, actor, {
        action: "thread.rename",
        targetType: "thread",
        targetId: thread.id,
        targetLabel: `${thread.scopeName}/${input.name}`,
        details: { from: thread.name, to: input.name },
      });
      return updated;
    })
    .catch((e: unknown) => conflictOnName(e, input.name));
}

export async function archiveThread(actor: Actor, raw: unknown) {
  const input = parseInput(ZArchiveThreadInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const thread = await requireThread(actor, input.threadId, "write", tx);
    const updated = await tx.thread.update({
      where: { id: thread.id },
      data: { archivedAt: input.archived ? (thread.archivedAt ?? new Date()) : null },
      select: THREAD,
    });
    await recordAudit(tx, actor, {
      action: input.archived ? "thread.archive" : "thread.unarchive",
      targetType: "thread",
      targetId: thread.id,
      targetLabel: `${thread.scopeName}/${thread.name}`,
    });
    return updated;
  });
}

/** Deletes the thread; its members stay in the scope (and in any other thread). */
export async function deleteThread(actor: Actor, raw: unknown) {
  const input = parseInput(ZThreadIdInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const thread = await requireThread(actor, input.threadId, "write", tx);
    const members = await tx.threadMember.count({ where: { threadId: thread.id } });
    await tx.thread.delete({ where: { id: thread.id } });
    await recordAudit(tx, actor, {
      action: "thread.delete",
      targetType: "thread",
      targetId: thread.id,
      targetLabel: `${thread.scopeName}/${thread.name}`,
      details: { members },
    });
    return { id: thread.id, name: thread.name, membersKept: members };
  });
}

async function requireMembersInScope(tx: Tx, actor: Actor, scopeId: string, memoryIds: string[]): Promise<void> {
  const found = await tx.memory.findMany({
    where: { id: { in: memoryIds }, scopeId, ...memoryVisible(actor) },
    select: { id: true },
  });
  const missing = memoryIds.filter((id) => !found.some((m) => m.id === id));
  if (missing.length)
    throw new DomainError(
      "NOT_FOUND",
      `Not in this thread's scope: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}.`,
      { field: "memoryIds", missing },
    );
}

export async function addThreadMembers(actor: Actor, raw: unknown) {
  const input = parseInput(ZThreadMembersInput, raw);
  const ids = [...new Set(input.memoryIds)];
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const thread = await requireThread(actor, input.threadId, "write", tx);
    await requireMembersInScope(tx, actor, thread.scopeId, ids);
    const { count } = await tx.threadMember.createMany({
      data: ids.map((memoryId) => ({ scopeId: thread.scopeId, threadId: thread.id, memoryId })),
      skipDuplicates: true,
    });
    await tx.thread.update({ where: { id: thread.id }, data: { updatedAt: new Date() } });
    return { threadId: thread.id, added: count, alreadyMembers: ids.length - count };
  });
}

export async function removeThreadMembers(actor: Actor, raw: unknown) {
  const input = parseInput(ZThreadMembersInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const thread = await requireThread(actor, input.threadId, "write", tx);
    const { count } = await tx.threadMember.deleteMany({
      where: { threadId: thread.id, memoryId: { in: input.memoryIds } },
    });
    await tx.thread.update({ where: { id: thread.id }, data: { updatedAt: new Date() } });
    return { threadId: thread.id, removed: count };
  });
}

export async function pinThreadMember(actor: Actor, raw: unknown) {
  const input = parseInput(ZPinInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const thread = await requireThread(actor, input.threadId, "write", tx);
    await requireMembersInScope(tx, actor, thread.scopeId, [input.memoryId]);
    // Pinning a memory that is not yet a member makes it one.
    const member = await tx.threadMember.upsert({
      where: { threadId_memoryId: { threadId: thread.id, memoryId: input.memoryId } },
      create: {
        scopeId: thread.scopeId,
        threadId: thread.id,
        memoryId: input.memoryId,
        pinnedAt: input.pinned ? new Date() : null,
      },
      update: { pinnedAt: input.pinned ? new Date() : null },
      select: { memoryId: true, pinnedAt: true },
    });
    await tx.thread.update({ where: { id: thread.id }, data: { updatedAt: new Date() } });
    return { threadId: thread.id, ...member };
  });
}

export async function listThreads(actor: Actor, raw: unknown) {
  const input = parseInput(ZListThreadsInput, raw);
  const scope = await requireScope(actor, input.scopeId, "read");
  const db = await getDb();
  const where: Prisma.ThreadWhereInput = {
    scopeId: scope.id,
    ...(input.archived === "active"
      ? { archivedAt: null }
      : input.archived === "archived"
        ? { archivedAt: { not: null } }
        : {}),
    ...(input.search ? { name: { contains: input.search, mode: "insensitive" } } : {}),
  };
  const offset = decodeOffsetCursor(input.cursor);
  const [rows, total] = await Promise.all([
    db.thread.findMany({
      where,
      orderBy: [{ archivedAt: { sort: "desc", nulls: "first" } }, { updatedAt: "desc" }, { id: "asc" }],
      skip: offset,
      take: input.limit,
      select: { ...THREAD, _count: { select: { members: { where: { memory: memoryVisible(actor) } } } } },
    }),
    db.thread.count({ where }),
  ]);
  const pins = rows.length
    ? await db.threadMember.groupBy({
        by: ["threadId"],
        where: { threadId: { in: rows.map((r) => r.id) }, pinnedAt: { not: null }, memory: memoryVisible(actor) },
        _count: { _all: true },
      })
    : [];
  const pinned = new Map(pins.map((p) => [p.threadId, p._count._all]));
  return {
    items: rows.map(({ _count, ...t }) => ({ ...t, members: _count.members, pinned: pinned.get(t.id) ?? 0 })),
    total,
    nextCursor: nextOffsetCursor(offset, rows.length, total),
  };
}

/** One thread and its index: member ids with kind, time and title, pinned first. */
export async function getThread(actor: Actor, raw: unknown) {
  const input = parseInput(ZThreadMembersListInput, raw);
  const thread = await requireThread(actor, input.threadId, "read");
  return { ...thread, ...(await threadIndex(actor, thread.id, input)) };
}

/**
 * A thread's members as a list the console scrolls in blocks (threads.members): pinned
 * first (newest pin first), then by when they happened, newest first, then in write order.
 */
export async function listThreadMembers(actor: Actor, raw: unknown) {
  const input = parseInput(ZThreadMembersListInput, raw);
  const thread = await requireThread(actor, input.threadId, "read");
  const index = await threadIndex(actor, thread.id, input);
  return { items: index.members, total: index.memberCount, nextCursor: index.nextCursor };
}

/** A thread's index by name within a scope (the qm://thread/{name} resource). */
export async function getThreadByName(actor: Actor, scopeId: string, name: string) {
  const scope = await requireScope(actor, scopeId, "read");
  const db = await getDb();
  const thread = await db.thread.findUnique({ where: { scopeId_name: { scopeId: scope.id, name } }, select: THREAD });
  if (!thread)
    throw new DomainError("NOT_FOUND", `Scope "${scope.name}" has no thread named "${name}".`, { field: "name" });
  return { ...thread, scopeName: scope.name, ...(await threadIndex(actor, thread.id, { limit: 500 })) };
}

async function threadIndex(actor: Actor, threadId: string, page: { cursor?: string; limit: number }) {
  const db = await getDb();
  const offset = decodeOffsetCursor(page.cursor);
  // Members the actor may not see (others' quarantined writes) are not listed or counted.
  const visible = { threadId, memory: memoryVisible(actor) };
  const [rows, total, pinnedCount] = await Promise.all([
    db.threadMember.findMany({
      where: visible,
      // Memories sharing a time in write order, newest first, as the memory list has them.
      orderBy: [
        { pinnedAt: { sort: "desc", nulls: "last" } },
        { memory: { occurredAt: "desc" } },
        { memory: { seq: "desc" } },
        { memoryId: "asc" },
      ],
      skip: offset,
      take: page.limit,
      select: {
        pinnedAt: true,
        addedAt: true,
        memory: {
          select: {
            id: true,
            kind: true,
            title: true,
            occurredAt: true,
            supersededById: true,
            discardedAt: true,
            erasedAt: true,
          },
        },
      },
    }),
    db.threadMember.count({ where: visible }),
    db.threadMember.count({ where: { ...visible, pinnedAt: { not: null } } }),
  ]);
  return {
    memberCount: total,
    pinnedCount,
    members: rows.map((r) => ({
      id: r.memory.id,
      kind: r.memory.kind,
      title: r.memory.title,
      occurredAt: r.memory.occurredAt,
      pinned: r.pinnedAt !== null,
      pinnedAt: r.pinnedAt,
      addedAt: r.addedAt,
      state: memoryState(r.memory),
    })),
    nextCursor: nextOffsetCursor(offset, rows.length, total),
  };
}

export type MemoryState = "current" | "superseded" | "discarded" | "erased";
export function memoryState(m: {
  supersededById: string | null;
  discardedAt: Date | null;
  erasedAt: Date | null;
}): MemoryState {
  if (m.erasedAt) return "erased";
  if (m.supersededById) return "superseded";
  if (m.discardedAt) return "discarded";
  return "current";
}

/**
 * Moves every thread membership and pin of `from` memories to `to` (a merge or a
 * supersession): the thread then points at the memory that replaced them. A pin survives
 * if any of the replaced memories was pinned in that thread.
 */
export async function moveMemberships(tx: Tx, from: string[], to: string): Promise<void> {
  if (!from.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO thread_member ("scopeId", "threadId", "memoryId", "addedAt", "pinnedAt")
     SELECT "scopeId", "threadId", $2, min("addedAt"), max("pinnedAt") FROM thread_member WHERE "memoryId" = ANY($1::text[]) GROUP BY "scopeId", "threadId"
     ON CONFLICT ("threadId", "memoryId") DO UPDATE SET "pinnedAt" = COALESCE(thread_member."pinnedAt", EXCLUDED."pinnedAt")`,
    from,
    to,
  );
  await tx.threadMember.deleteMany({ where: { memoryId: { in: from } } });
}

/** Threads the actor may read, for filters by name across one scope. */
export function threadWhere(actor: Actor, scopeId: string): Prisma.ThreadWhereInput {
  return { scopeId, scope: scopeWhere(actor, "read") };
}
