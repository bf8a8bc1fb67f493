/**
 * Memories: written once, never edited. A correction is a new memory that supersedes the
 * old one, which stays readable by id. Writes involve no model: a body, its derived index
 * entries and its facts are stored in one short transaction.
 */

import { randomUUID } from "node:crypto";
import { env } from "@/env";
import { fmt } from "@/universal/format";
import { type Actor, actorId, actorLabel } from "../../actor";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { recordAudit } from "../audit/record";
import { utf8Bytes } from "../catalog/canonical";
import { operation } from "../operation";
import { parseInput } from "../validation";
import { memoryVisible, memoryWhere, requireMemoryScope, requireScope } from "./access";
import { fingerprintOf } from "./consolidator";
import { writeFacts } from "./facts";
import { indexMemory } from "./index-entries";
import { provenanceOf } from "./provenance";
import { type TCreateMemoryInput, ZCreateMemoryInput, ZGetManyInput, ZMemoryIdInput, ZSupersedeInput } from "./schemas";
import { flagReason, screenMemoryBody } from "./screening";
import { contentHash, titleOf } from "./text";
import { ensureThreads, memoryState, moveMemberships } from "./threads";

/** Memories one author writes within this gap of each other belong to one episode. */
const EPISODE_GAP_MS = 30 * 60_000;

export function checkBodySize(body: string): number {
  const bytes = utf8Bytes(body);
  const max = LIMITS.MEMORY_BODY_BYTES.value;
  if (bytes > max)
    throw new DomainError(
      "MEMORY_TOO_LARGE",
      `body: ${fmt(bytes)} bytes; a memory body may be at most ${fmt(max)} bytes (64 KiB). Split it into several memories.`,
      { field: "body", limit: max, measured: bytes, unit: "bytes" },
    );
  return bytes;
}

async function episodeFor(tx: Tx, scopeId: string, actor: Actor, occurredAt: Date): Promise<string> {
  const previous = await tx.memory.findFirst({
    where: {
      scopeId,
      authorType: actor.kind,
      authorId: actorId(actor),
      occurredAt: { lte: occurredAt, gte: new Date(occurredAt.getTime() - EPISODE_GAP_MS) },
    },
    orderBy: [{ occurredAt: "desc" }, { seq: "desc" }],
    select: { episodeId: true },
  });
  return previous?.episodeId ?? randomUUID();
}

/** The allow-list links are screened against: the setting, and always the console's own host. */
export function memoryLinkHosts(): string[] {
  const own = env.QM_BASE_URL ? new URL(env.QM_BASE_URL).hostname : env.HOST;
  return [...new Set([own, "127.0.0.1", "localhost", ...env.QM_MEMORY_LINK_HOSTS])];
}

export interface WrittenMemory {
  id: string;
  scopeId: string;
  kind: string;
  title: string;
  occurredAt: Date;
  recordedAt: Date;
  supersedes: string | null;
  threads: string[];
  facts: number;
  flagged: boolean;
  flagReasons: string[];
  /** Held for a curator (the scope's agentWrites is review): its writer and curators see it, no one else yet. */
  quarantined: boolean;
}

/** What a quarantined write does to the rest of the scope once admitted, and not before. */
export interface HeldEffects {
  supersedes?: string;
  threads?: string[];
  handoffToThread?: string;
}

/**
 * Writes one memory inside a transaction the caller holds (debrief writes several in one).
 * An Agent Identity's write to a scope under review is quarantined: stored, with its facts,
 * but it joins no thread, supersedes nothing and closes no fact series until a curator
 * accepts the `admit` proposal filed here, which carries those effects (decision 0090).
 * `onBehalfOf`: whose request made the write when the author is the system (an accepted
 * merge): its token, session and Tool Call are the memory's provenance.
 */
export async function writeMemory(
  tx: Tx,
  actor: Actor,
  scopeId: string,
  raw: TCreateMemoryInput,
  { onBehalfOf, ...held }: Pick<HeldEffects, "handoffToThread"> & { onBehalfOf?: Actor } = {},
): Promise<WrittenMemory> {
  const input = parseInput(ZCreateMemoryInput, raw);
  const bytes = checkBodySize(input.body);
  const occurredAt = input.occurredAt ?? new Date();
  const flagReasons = screenMemoryBody(input.body, { allowedHosts: memoryLinkHosts() }).map(flagReason);
  const quarantined =
    actor.kind === "agent" &&
    (await tx.scope.findUniqueOrThrow({ where: { id: scopeId }, select: { agentWrites: true } })).agentWrites ===
      "review";

  if (input.supersedes) {
    // Only a memory the writer may see: another agent's quarantined write is not there for it.
    const old = await tx.memory.findFirst({
      where: { AND: [{ id: input.supersedes }, memoryVisible(actor)] },
      select: { id: true, scopeId: true, supersededById: true, erasedAt: true },
    });
    if (!old || old.scopeId !== scopeId)
      throw new DomainError("NOT_FOUND", `supersedes: memory ${input.supersedes} is not in this scope.`, {
        field: "supersedes",
      });
    if (old.supersededById)
      throw new DomainError(
        "CONFLICT",
        `supersedes: memory ${old.id} is already superseded by ${old.supersededById}; supersede that one instead.`,
        { field: "supersedes", supersededById: old.supersededById },
      );
  }

  const created = await tx.memory.create({
    data: {
      scopeId,
      kind: input.kind,
      body: input.body,
      title: titleOf(input.body),
      bodyBytes: bytes,
      contentHash: contentHash(input.body),
      tags: [...new Set(input.tags)],
      authorType: actor.kind,
      authorId: actorId(actor),
      authorLabel: actorLabel(actor),
      occurredAt,
      episodeId: await episodeFor(tx, scopeId, actor, occurredAt),
      flagReasons,
      flagged: flagReasons.length > 0,
      quarantined,
      ...provenanceOf(onBehalfOf ?? actor),
    },
    select: {
      id: true,
      scopeId: true,
      kind: true,
      title: true,
      occurredAt: true,
      recordedAt: true,
      flagged: true,
      flagReasons: true,
      quarantined: true,
    },
  });
  await indexMemory(tx, created.id, input.body, input.tags);
  await writeFacts(tx, created, input.facts);

  if (quarantined) {
    const effects: HeldEffects = {
      ...(input.supersedes ? { supersedes: input.supersedes } : {}),
      ...(input.threads.length ? { threads: [...new Set(input.threads.map((t) => t.trim()))] } : {}),
      ...held,
    };
    await fileAdmitProposal(tx, actor, created.id, effects);
    return {
      ...created,
      supersedes: input.supersedes ?? null,
      threads: effects.threads ?? [],
      facts: input.facts.length,
    };
  }

  const threads = await ensureThreads(tx, scopeId, input.threads);
  if (threads.length)
    await tx.threadMember.createMany({
      data: threads.map((t) => ({ scopeId, threadId: t.id, memoryId: created.id })),
      skipDuplicates: true,
    });

  if (input.supersedes) {
    await tx.memory.update({
      where: { id: input.supersedes },
      data: { supersededById: created.id, supersededAt: created.recordedAt },
    });
    await moveMemberships(tx, [input.supersedes], created.id);
  }
  return {
    ...created,
    supersedes: input.supersedes ?? null,
    threads: threads.map((t) => t.name),
    facts: input.facts.length,
  };
}

/**
 * The curator's queue entry for a quarantined write: the memory, who wrote it, and what it
 * will do once admitted. Ids and names only: evidence never copies a body erasure must find.
 */
async function fileAdmitProposal(tx: Tx, actor: Actor, memoryId: string, effects: HeldEffects): Promise<void> {
  const memory = await tx.memory.findUniqueOrThrow({ where: { id: memoryId }, select: { scopeId: true } });
  const then = [
    effects.supersedes ? `supersede ${effects.supersedes}` : null,
    effects.threads?.length
      ? `join thread${effects.threads.length > 1 ? "s" : ""} ${effects.threads.join(", ")}`
      : null,
    effects.handoffToThread ? `be handed to thread ${effects.handoffToThread}` : null,
  ].filter(Boolean);
  await tx.proposal.create({
    data: {
      scopeId: memory.scopeId,
      kind: "admit",
      memoryIds: [memoryId],
      key: `admit:${memoryId}`,
      rationale: `Written by ${actorLabel(actor)} to a scope that holds agents' writes for review: only its writer and curators see it until it is admitted.${then.length ? ` Admitting it will also ${then.join("; ")}.` : ""} Rejecting it discards it, unseen by anyone else.`,
      score: 1,
      evidence: { reason: "agent_write_under_review", author: actorLabel(actor), ...effects },
      fingerprint: await fingerprintOf(tx, [memoryId]),
    },
  });
}

export async function createMemory(actor: Actor, raw: unknown): Promise<WrittenMemory> {
  const input = parseInput(ZCreateMemoryInput, raw);
  checkBodySize(input.body);
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  return db.$transaction((tx) => writeMemory(tx, actor, scope.id, input));
}

/** A correction: a new memory that supersedes `memoryId` (which stays readable by id). */
export async function supersedeMemory(actor: Actor, raw: unknown): Promise<WrittenMemory> {
  const input = parseInput(ZSupersedeInput, raw);
  checkBodySize(input.body);
  const scope = await requireMemoryScope(actor, input.memoryId, "write");
  const db = await getDb();
  return db.$transaction((tx) =>
    writeMemory(tx, actor, scope.id, { ...input, scopeId: scope.id, supersedes: input.memoryId }),
  );
}

const MEMORY = {
  id: true,
  scopeId: true,
  kind: true,
  body: true,
  title: true,
  bodyBytes: true,
  tags: true,
  authorType: true,
  authorId: true,
  authorLabel: true,
  occurredAt: true,
  recordedAt: true,
  supersededById: true,
  supersededAt: true,
  discardedAt: true,
  mergedFrom: true,
  erasedAt: true,
  erasedBy: true,
  erasureReason: true,
  flagged: true,
  flagReasons: true,
  flagClearedAt: true,
  flagClearedBy: true,
  quarantined: true,
  admittedAt: true,
  admittedBy: true,
  writtenVia: true,
  authorTokenId: true,
  callId: true,
  clientName: true,
  clientVersion: true,
} as const;

type MemoryRow = { [K in keyof typeof MEMORY]: unknown } & {
  supersededById: string | null;
  discardedAt: Date | null;
  erasedAt: Date | null;
};

function view<T extends MemoryRow>(row: T) {
  return { ...row, state: memoryState(row) };
}

/** One memory with its supersession chain, facts, threads and provenance. */
export async function getMemory(actor: Actor, raw: unknown) {
  const { id } = parseInput(ZMemoryIdInput, raw);
  const scope = await requireMemoryScope(actor, id, "read");
  const db = await getDb();
  const memory = await db.memory.findUniqueOrThrow({ where: { id }, select: MEMORY });
  const [chain, facts, threads, mergedFrom] = await Promise.all([
    supersessionChain(id),
    db.fact.findMany({
      where: { memoryId: id },
      orderBy: [{ validFrom: "asc" }, { id: "asc" }],
      select: { id: true, subject: true, predicate: true, value: true, validFrom: true, validUntil: true },
    }),
    db.threadMember.findMany({
      where: { memoryId: id },
      orderBy: { thread: { name: "asc" } },
      select: { pinnedAt: true, thread: { select: { id: true, name: true, archivedAt: true } } },
    }),
    memory.mergedFrom.length
      ? db.memory.findMany({
          // Only the scope's own: an id naming another scope's memory shows as unknown.
          where: { scopeId: memory.scopeId, id: { in: memory.mergedFrom } },
          select: { id: true, title: true, kind: true, erasedAt: true, occurredAt: true },
        })
      : [],
  ]);
  return {
    ...view(memory),
    scopeName: scope.name,
    currentVersionId: memory.supersededById ? await chainEnd(id) : null,
    chain,
    facts: facts.map((f) => ({ ...f, current: f.validUntil === null })),
    threads: threads.map((t) => ({ ...t.thread, pinned: t.pinnedAt !== null })),
    mergedFrom: memory.mergedFrom.map(
      (mid) =>
        mergedFrom.find((m) => m.id === mid) ?? { id: mid, title: "", kind: null, erasedAt: null, occurredAt: null },
    ),
  };
}

/**
 * The memory at the end of the chain of supersessions starting at `id`: what a reader of a
 * superseded memory wants, not the next link, which may itself be superseded. The chain
 * shown beside a memory is bounded; this walk is not, so a long history still ends right.
 */
async function chainEnd(id: string): Promise<string> {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `WITH RECURSIVE later AS (
       SELECT m.id, m."supersededById", ARRAY[m.id] AS seen FROM memory m WHERE m.id = $1
       UNION ALL
       SELECT n.id, n."supersededById", later.seen || n.id
         FROM later JOIN memory n ON n.id = later."supersededById"
        WHERE NOT n.id = ANY(later.seen)
     )
     SELECT id FROM later ORDER BY cardinality(seen) DESC LIMIT 1`,
    id,
  );
  return rows[0]?.id ?? id;
}

/**
 * The memories this one replaced and the ones that replaced it, oldest first: a merge has
 * several predecessors, a supersession one. Bounded, so a long history stays cheap.
 */
async function supersessionChain(id: string, max = 50) {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<
    {
      id: string;
      title: string;
      kind: string;
      occurredAt: Date;
      recordedAt: Date;
      supersededById: string | null;
      erasedAt: Date | null;
      discardedAt: Date | null;
      dir: number;
    }[]
  >(
    `WITH RECURSIVE later AS (
       SELECT m.id, m."supersededById", 0 AS depth FROM memory m WHERE m.id = $1
       UNION ALL
       SELECT n.id, n."supersededById", later.depth + 1 FROM later JOIN memory n ON n.id = later."supersededById" WHERE later.depth < $2
     ), earlier AS (
       SELECT m.id, 0 AS depth FROM memory m WHERE m.id = $1
       UNION ALL
       SELECT p.id, earlier.depth + 1 FROM earlier JOIN memory p ON p."supersededById" = earlier.id WHERE earlier.depth < $2
     )
     SELECT m.id, m.title, m.kind::text AS kind, m."occurredAt", m."recordedAt", m."supersededById", m."erasedAt", m."discardedAt", x.dir
       FROM (SELECT id, 1 AS dir FROM later WHERE depth > 0 UNION SELECT id, -1 FROM earlier WHERE depth > 0 UNION SELECT $1, 0) x
       JOIN memory m ON m.id = x.id
      ORDER BY m."recordedAt", m.seq`,
    id,
    max,
  );
  return rows.map(({ dir, ...r }) => ({
    ...r,
    relation: dir === 0 ? ("this" as const) : dir < 0 ? ("earlier" as const) : ("later" as const),
    state: memoryState(r),
  }));
}

/** Whole bodies by id, in the order asked; ids that are not there to read are listed apart. */
export async function getMemories(actor: Actor, raw: unknown) {
  const { ids } = parseInput(ZGetManyInput, raw);
  const db = await getDb();
  const rows = await db.memory.findMany({
    where: { AND: [{ id: { in: ids } }, memoryWhere(actor, "read")] },
    select: { ...MEMORY, scope: { select: { name: true } } },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const memories = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const { scope, ...rest } = row;
    return [{ ...view(rest), scopeName: scope.name }];
  });
  return { memories, missing: ids.filter((id) => !byId.has(id)) };
}

/**
 * A curator has read a flagged memory and found it harmless: briefing may show it again. The
 * reasons stay on the memory beside who cleared it, so the decision can be reviewed later.
 */
export const clearMemoryFlag = operation({ role: "curator", input: ZMemoryIdInput }, async (actor, { id }) => {
  const scope = await requireMemoryScope(actor, id, "write");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const now = new Date();
    const by = actorLabel(actor);
    // Conditional, so two curators clearing at once record one decision, not two.
    const { count } = await tx.memory.updateMany({
      where: { id, flagged: true },
      data: { flagged: false, flagClearedAt: now, flagClearedBy: by },
    });
    if (!count) throw new DomainError("CONFLICT", `memory ${id} is not flagged; there is nothing to clear.`, { id });
    const memory = await tx.memory.findUniqueOrThrow({ where: { id }, select: { title: true, flagReasons: true } });
    await recordAudit(tx, actor, {
      action: "memory.clear_flag",
      targetType: "memory",
      targetId: id,
      targetLabel: memory.title || scope.name,
      details: { scope: scope.name, reasons: memory.flagReasons },
    });
    return { id, flagged: false, flagReasons: memory.flagReasons, flagClearedAt: now, flagClearedBy: by };
  });
});
