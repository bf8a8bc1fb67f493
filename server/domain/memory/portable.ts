/**
 * A scope as JSON Lines, so it can move between installations: the scope, then every memory
 * (tombstones included, with its provenance and screening flag), fact, thread, membership
 * and proposal with its decision, ids and times as they are, and last a signature line
 * (scope-signature.ts). Importing checks the signature, then writes it all in one
 * transaction and skips what is already there, so importing the same file twice changes
 * nothing. Grants are not exported: they name Agent Identities of the installation the
 * scope came from.
 */

import { z } from "zod";
import { fmt } from "@/universal/format";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { unstorableText } from "../storable-text";
import { parseInput } from "../validation";
import { requireScope } from "./access";
import { asErasureLeavesIt, erasedIds, namesErased } from "./import-tombstones";
import { indexMemories } from "./index-entries";
import { memoryLinkHosts } from "./memories";
import {
  WRITTEN_VIA,
  ZCreateScopeInput,
  ZCreateThreadInput,
  ZImportInput,
  ZScopeIdInput,
  ZScopeName,
  ZTag,
  ZThreadName,
} from "./schemas";
import { signedLines, verifyScopeFile } from "./scope-signature";
import { flagReason, screenMemoryBody } from "./screening";

export const EXPORT_FORMAT = "quartermaster.scope/v1";

const date = z.coerce.date();
const maybeDate = date.nullable();

// Names, descriptions and tags obey the rules the console and /mcp hold them to: an import
// is another way to create a scope, not a way around its rules.
const ZScopeLine = z.object({
  type: z.literal("scope"),
  format: z.literal(EXPORT_FORMAT),
  id: z.string(),
  name: ZScopeName,
  description: ZCreateScopeInput.shape.description,
  consolidateEverySeconds: ZCreateScopeInput.shape.consolidateEverySeconds.unwrap(),
  createdAt: date,
});
const ZMemoryLine = z.object({
  type: z.literal("memory"),
  id: z.string(),
  kind: z.enum(["note", "decision", "fact", "handoff", "briefing", "debrief"]),
  body: z.string().max(LIMITS.MEMORY_BODY_BYTES.value).nullable(),
  title: z.string(),
  bodyBytes: z.number().int().min(0).max(LIMITS.MEMORY_BODY_BYTES.value),
  contentHash: z.string().nullable(),
  tags: z.array(ZTag).max(LIMITS.MEMORY_TAGS.value),
  authorType: z.string(),
  authorId: z.string().nullable(),
  authorLabel: z.string(),
  occurredAt: date,
  recordedAt: date,
  episodeId: z.string(),
  supersededById: z.string().nullable(),
  supersededAt: maybeDate,
  discardedAt: maybeDate,
  mergedFrom: z.array(z.string()),
  erasedAt: maybeDate,
  erasedBy: z.string().nullable(),
  erasureReason: z.string().nullable(),
  // Optional: files exported before these were recorded lack them (provenance unknown).
  flagged: z.boolean().optional(),
  flagReasons: z.array(z.string().max(200)).max(50).optional(),
  flagClearedAt: maybeDate.optional(),
  flagClearedBy: z.string().max(400).nullable().optional(),
  writtenVia: z.enum(WRITTEN_VIA).nullable().optional(),
  authorTokenId: z.string().max(200).nullable().optional(),
  callId: z.string().max(200).nullable().optional(),
  clientName: z.string().max(200).nullable().optional(),
  clientVersion: z.string().max(200).nullable().optional(),
});
const ZFactLine = z.object({
  type: z.literal("fact"),
  id: z.string(),
  memoryId: z.string(),
  subject: z.string(),
  predicate: z.string(),
  value: z.string(),
  subjectKey: z.string(),
  predicateKey: z.string(),
  validFrom: date,
  validUntil: maybeDate,
  recordedAt: date,
});
const ZThreadLine = z.object({
  type: z.literal("thread"),
  id: z.string(),
  name: ZThreadName,
  description: ZCreateThreadInput.shape.description,
  archivedAt: maybeDate,
  createdAt: date,
  updatedAt: date,
});
const ZMemberLine = z.object({
  type: z.literal("thread_member"),
  threadId: z.string(),
  memoryId: z.string(),
  addedAt: date,
  pinnedAt: maybeDate,
});
const ZProposalLine = z.object({
  type: z.literal("proposal"),
  id: z.string(),
  kind: z.enum(["merge", "supersede", "discard"]),
  status: z.enum(["pending", "accepted", "rejected", "stale"]),
  memoryIds: z.array(z.string()),
  key: z.string(),
  rationale: z.string(),
  score: z.number(),
  evidence: z.json(),
  fingerprint: z.string(),
  filedAt: date,
  decidedAt: maybeDate,
  decidedByType: z.string().nullable(),
  decidedById: z.string().nullable(),
  decidedByLabel: z.string().nullable(),
  decisionReason: z.string().nullable(),
  resultMemoryId: z.string().nullable(),
});
const ZLine = z.discriminatedUnion("type", [ZMemoryLine, ZFactLine, ZThreadLine, ZMemberLine, ZProposalLine]);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The scope as JSON Lines: one object per line, the scope first, memories in write order. */
export async function exportScope(
  actor: Actor,
  raw: unknown,
): Promise<{ name: string; lines: number; signed: true; jsonl: string }> {
  const { scopeId } = parseInput(ZScopeIdInput, raw);
  await requireScope(actor, scopeId, "read");
  const out: string[] = [];
  for await (const line of exportLines(scopeId)) out.push(line);
  const db = await getDb();
  const scope = await db.scope.findUniqueOrThrow({ where: { id: scopeId }, select: { name: true } });
  // `lines` counts the scope's own lines; the signature line after them is not one of them.
  return { name: scope.name, lines: out.length - 1, signed: true, jsonl: `${out.join("\n")}\n` };
}

/**
 * The export, a line at a time, signed (a download streams it). Access is the caller's to check.
 * Writes still held for review are not the scope's yet: an export leaves them out, with
 * their facts and every admit proposal, whoever exports (decision 0090).
 */
export function exportLines(scopeId: string): AsyncGenerator<string> {
  return signedLines(contentLines(scopeId));
}

async function* contentLines(scopeId: string): AsyncGenerator<string> {
  const db = await getDb();
  const scope = await db.scope.findUniqueOrThrow({ where: { id: scopeId } });
  yield JSON.stringify({
    type: "scope",
    format: EXPORT_FORMAT,
    id: scope.id,
    name: scope.name,
    description: scope.description,
    consolidateEverySeconds: scope.consolidateEverySeconds,
    createdAt: scope.createdAt.toISOString(),
  });
  let after = -1;
  for (;;) {
    const rows = await db.memory.findMany({
      where: { scopeId, seq: { gt: after }, quarantined: false },
      orderBy: { seq: "asc" },
      take: 1000,
      omit: { lshBands: true, scopeId: true, quarantined: true, admittedAt: true, admittedBy: true },
    });
    if (!rows.length) break;
    after = rows.at(-1)?.seq ?? after;
    for (const { seq: _seq, ...m } of rows)
      yield JSON.stringify({
        type: "memory",
        ...m,
        occurredAt: iso(m.occurredAt),
        recordedAt: iso(m.recordedAt),
        supersededAt: iso(m.supersededAt),
        discardedAt: iso(m.discardedAt),
        erasedAt: iso(m.erasedAt),
        flagClearedAt: iso(m.flagClearedAt),
      });
  }
  const facts = await db.fact.findMany({
    where: { scopeId, memory: { quarantined: false } },
    orderBy: [{ recordedAt: "asc" }, { id: "asc" }],
  });
  for (const { scopeId: _s, ...f } of facts)
    yield JSON.stringify({
      type: "fact",
      ...f,
      validFrom: iso(f.validFrom),
      validUntil: iso(f.validUntil),
      recordedAt: iso(f.recordedAt),
    });
  const threads = await db.thread.findMany({ where: { scopeId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  for (const { scopeId: _s, ...t } of threads)
    yield JSON.stringify({
      type: "thread",
      ...t,
      archivedAt: iso(t.archivedAt),
      createdAt: iso(t.createdAt),
      updatedAt: iso(t.updatedAt),
    });
  const members = await db.threadMember.findMany({
    where: { scopeId, memory: { quarantined: false } },
    orderBy: [{ threadId: "asc" }, { memoryId: "asc" }],
  });
  for (const { scopeId: _s, ...m } of members)
    yield JSON.stringify({ type: "thread_member", ...m, addedAt: iso(m.addedAt), pinnedAt: iso(m.pinnedAt) });
  const proposals = await db.proposal.findMany({
    where: { scopeId, kind: { not: "admit" } },
    orderBy: [{ filedAt: "asc" }, { id: "asc" }],
  });
  for (const { scopeId: _s, ...p } of proposals)
    yield JSON.stringify({ type: "proposal", ...p, filedAt: iso(p.filedAt), decidedAt: iso(p.decidedAt) });
}

type Parsed = {
  scope: z.output<typeof ZScopeLine>;
  memories: z.output<typeof ZMemoryLine>[];
  facts: z.output<typeof ZFactLine>[];
  threads: z.output<typeof ZThreadLine>[];
  members: z.output<typeof ZMemberLine>[];
  proposals: z.output<typeof ZProposalLine>[];
  /** The file line each parsed object came from, for refusals that name it. */
  lineOf: WeakMap<object, number>;
};

function checkImportSize(jsonl: string): void {
  const bytes = Buffer.byteLength(jsonl);
  const max = LIMITS.SCOPE_IMPORT_BYTES.value;
  if (bytes > max)
    throw new DomainError("INVALID_INPUT", `jsonl: ${fmt(bytes)} bytes; an import may be at most ${fmt(max)} bytes.`, {
      field: "jsonl",
      limit: max,
      measured: bytes,
    });
}

/** `fileLines`: the file's lines without its signature, so a line's number is its number in the file. */
function parseJsonl(fileLines: string[]): Parsed {
  const lines = fileLines.filter((l) => l.trim());
  const parsed: Parsed = {
    scope: undefined as never,
    memories: [],
    facts: [],
    threads: [],
    members: [],
    proposals: [],
    lineOf: new WeakMap(),
  };
  lines.forEach((text, index) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new DomainError("INVALID_INPUT", `jsonl: line ${index + 1} is not JSON.`, {
        field: "jsonl",
        line: index + 1,
      });
    }
    const bad = unstorableText(value);
    if (bad)
      throw new DomainError("INVALID_INPUT", `jsonl: line ${index + 1} (${bad.path}): ${bad.reason}.`, {
        field: "jsonl",
        line: index + 1,
        path: bad.path,
      });
    const result = index === 0 ? ZScopeLine.safeParse(value) : ZLine.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const notScope = index === 0 && (!issue?.path.length || ["type", "format"].includes(String(issue.path[0])));
      throw new DomainError(
        "INVALID_INPUT",
        `jsonl: line ${index + 1}${issue?.path.length ? ` (${issue.path.join(".")})` : ""}: ${notScope ? `the first line must describe the scope (format ${EXPORT_FORMAT}); ` : ""}${issue?.message ?? "invalid"}`,
        { field: "jsonl", line: index + 1 },
      );
    }
    const line = result.data as { type: string };
    parsed.lineOf.set(line, index + 1);
    if (line.type === "scope") parsed.scope = line as Parsed["scope"];
    else if (line.type === "memory") parsed.memories.push(line as Parsed["memories"][number]);
    else if (line.type === "fact") parsed.facts.push(line as Parsed["facts"][number]);
    else if (line.type === "thread") parsed.threads.push(line as Parsed["threads"][number]);
    else if (line.type === "thread_member") parsed.members.push(line as Parsed["members"][number]);
    else parsed.proposals.push(line as Parsed["proposals"][number]);
  });
  if (!parsed.scope) throw new DomainError("INVALID_INPUT", "jsonl: the file is empty.", { field: "jsonl" });
  return parsed;
}

async function claimScope(tx: Tx, scope: Parsed["scope"]): Promise<boolean> {
  const [byId, byName] = await Promise.all([
    tx.scope.findUnique({ where: { id: scope.id }, select: { name: true } }),
    tx.scope.findUnique({ where: { name: scope.name }, select: { id: true } }),
  ]);
  if (byId && byId.name !== scope.name)
    throw new DomainError("CONFLICT", `This installation holds the scope's id under another name ("${byId.name}").`);
  if (byName && byName.id !== scope.id)
    throw new DomainError("CONFLICT", `A different scope is already named "${scope.name}"; rename it first.`, {
      field: "name",
    });
  if (byId) return false;
  await tx.scope.create({
    data: {
      id: scope.id,
      name: scope.name,
      description: scope.description,
      consolidateEverySeconds: scope.consolidateEverySeconds,
      createdAt: scope.createdAt,
      nextConsolidationAt: new Date(Date.now() + scope.consolidateEverySeconds * 1000),
    },
  });
  return true;
}

type Ref = { line: number; field: string; kind: "memory" | "thread"; id: string };

/** Every id a line of the file points at: memories and threads it must itself hold. */
function referencesOf(data: Parsed): Ref[] {
  const refs: Ref[] = [];
  const at = (o: object) => data.lineOf.get(o) ?? 0;
  const memory = (o: object, field: string, id: string | null) => {
    if (id !== null) refs.push({ line: at(o), field, kind: "memory", id });
  };
  for (const m of data.memories) {
    memory(m, "supersededById", m.supersededById);
    for (const [i, id] of m.mergedFrom.entries()) memory(m, `mergedFrom.${i}`, id);
  }
  for (const f of data.facts) memory(f, "memoryId", f.memoryId);
  for (const m of data.members) {
    refs.push({ line: at(m), field: "threadId", kind: "thread", id: m.threadId });
    memory(m, "memoryId", m.memoryId);
  }
  for (const p of data.proposals) {
    for (const [i, id] of p.memoryIds.entries()) memory(p, `memoryIds.${i}`, id);
    memory(p, "resultMemoryId", p.resultMemoryId);
  }
  return refs;
}

/**
 * Refuses the whole file when a line reuses an id another scope holds here, or points at a
 * memory or thread that is neither in the file nor already in this scope: an import writes
 * into the one scope it names and never reaches another (the composite keys would refuse a
 * membership, fact or supersession anyway; proposal and merge id arrays only this check).
 */
async function requireSelfContained(tx: Tx, scopeId: string, data: Parsed): Promise<void> {
  const at = (o: object) => data.lineOf.get(o) ?? 0;
  const owned: [string, { id: string }[], (ids: string[]) => Promise<{ id: string }[]>][] = [
    [
      "memory",
      data.memories,
      (ids) => tx.memory.findMany({ where: { id: { in: ids }, NOT: { scopeId } }, select: { id: true } }),
    ],
    [
      "fact",
      data.facts,
      (ids) => tx.fact.findMany({ where: { id: { in: ids }, NOT: { scopeId } }, select: { id: true } }),
    ],
    [
      "thread",
      data.threads,
      (ids) => tx.thread.findMany({ where: { id: { in: ids }, NOT: { scopeId } }, select: { id: true } }),
    ],
    [
      "proposal",
      data.proposals,
      (ids) => tx.proposal.findMany({ where: { id: { in: ids }, NOT: { scopeId } }, select: { id: true } }),
    ],
  ];
  for (const [kind, rows, elsewhere] of owned) {
    if (!rows.length) continue;
    const taken = new Set((await elsewhere(rows.map((r) => r.id))).map((r) => r.id));
    const first = rows.find((r) => taken.has(r.id));
    if (first)
      throw new DomainError(
        "CONFLICT",
        `jsonl: line ${at(first)} (id): ${kind} ${first.id} belongs to another scope here${taken.size > 1 ? ` (and ${fmt(taken.size - 1)} more of the file's ${kind} ids)` : ""}; nothing was imported.`,
        { field: "jsonl", line: at(first), path: "id" },
      );
  }
  const inFile = {
    memory: new Set(data.memories.map((m) => m.id)),
    thread: new Set(data.threads.map((t) => t.id)),
  };
  const refs = referencesOf(data);
  const outside = refs.filter((r) => !inFile[r.kind].has(r.id));
  if (!outside.length) return;
  const [memories, threads] = await Promise.all([
    tx.memory.findMany({
      where: { scopeId, id: { in: outside.filter((r) => r.kind === "memory").map((r) => r.id) } },
      select: { id: true },
    }),
    tx.thread.findMany({
      where: { scopeId, id: { in: outside.filter((r) => r.kind === "thread").map((r) => r.id) } },
      select: { id: true },
    }),
  ]);
  const here = new Set([...memories, ...threads].map((r) => r.id));
  const bad = outside.find((r) => !here.has(r.id));
  if (bad)
    throw new DomainError(
      "INVALID_INPUT",
      `jsonl: line ${bad.line} (${bad.field}): ${bad.kind} ${bad.id} is not in the file, nor in scope "${data.scope.name}"; an import may only reference its own scope. Nothing was imported.`,
      { field: "jsonl", line: bad.line, path: bad.field },
    );
}

type MemoryLine = z.output<typeof ZMemoryLine>;

/**
 * A file is text from elsewhere: its memories are screened as any write is. What the file
 * says about screening is believed only as far as its signature vouches for it: a signed
 * file's cleared memory stays cleared (a curator there read it) and its flags are kept; an
 * unsigned file may add a flag, never clear one.
 */
function flagOnImport(m: Omit<MemoryLine, "type">, signed: boolean) {
  const screened = m.body ? screenMemoryBody(m.body, { allowedHosts: memoryLinkHosts() }).map(flagReason) : [];
  const claimed = m.flagReasons ?? [];
  const flagReasons = [...new Set([...claimed, ...screened])];
  if (signed && m.flagged === false && m.flagClearedAt)
    return {
      flagReasons,
      // Cleared there for the reasons it carried; a rule only this installation has trips anew.
      flagged: screened.some((r) => !claimed.includes(r)),
      flagClearedAt: m.flagClearedAt,
      flagClearedBy: m.flagClearedBy ?? null,
    };
  return {
    flagReasons,
    flagged: screened.length > 0 || m.flagged === true,
    flagClearedAt: null,
    flagClearedBy: null,
  };
}

export const importScope = operation({ role: "curator", input: ZImportInput }, async (actor, input) => {
  checkImportSize(input.jsonl);
  const { lines, verified } = await verifyScopeFile(input.jsonl, { acceptUnsigned: input.acceptUnsigned });
  const data = parseJsonl(lines);
  const signature = verified.signed
    ? { signed: true as const, fingerprint: verified.fingerprint, signer: verified.signer }
    : { signed: false as const, acceptedUnsigned: true };
  const db = await getDb();
  const result = await db.$transaction(
    async (tx) => {
      const created = await claimScope(tx, data.scope);
      const scopeId = data.scope.id;
      await requireSelfContained(tx, scopeId, data);
      const erased = await erasedIds(tx, scopeId, data.memories);
      const now = new Date();
      // Supersession links are set once every memory is in: a link may point at a memory a
      // later batch writes, and the composite key checks each statement on its own.
      const written = new Set<string>();
      const memoryLines = data.memories.map((m) => asErasureLeavesIt(m, erased, now));
      for (let i = 0; i < memoryLines.length; i += 500) {
        const batch = memoryLines.slice(i, i + 500);
        const rows = await tx.memory.createManyAndReturn({
          data: batch.map(({ type: _t, ...m }) => ({
            ...m,
            scopeId,
            supersededById: null,
            ...flagOnImport(m, verified.signed),
          })),
          skipDuplicates: true,
          select: { id: true },
        });
        for (const r of rows) written.add(r.id);
        // Only what this import wrote is indexed: a memory already here keeps its own entries.
        await indexMemories(
          tx,
          batch.filter((m) => m.body !== null && written.has(m.id)) as { id: string; body: string; tags: string[] }[],
          true,
        );
      }
      const links = memoryLines.filter((m) => m.supersededById !== null && written.has(m.id));
      if (links.length)
        await tx.$executeRawUnsafe(
          `UPDATE memory m SET "supersededById" = l.by FROM unnest($1::text[], $2::text[]) AS l(id, by) WHERE m.id = l.id`,
          links.map((m) => m.id),
          links.map((m) => m.supersededById),
        );
      const memories = written.size;
      // Nothing derived from an erased memory comes back: its facts, memberships, proposals.
      const keptFacts = data.facts.filter((f) => !namesErased([f.memoryId], erased));
      const keptMembers = data.members.filter((m) => !namesErased([m.memoryId], erased));
      const keptProposals = data.proposals.filter((p) => !namesErased([...p.memoryIds, p.resultMemoryId], erased));
      const skippedErased =
        data.facts.length -
        keptFacts.length +
        data.members.length -
        keptMembers.length +
        data.proposals.length -
        keptProposals.length;
      const facts = await tx.fact.createMany({
        data: keptFacts.map(({ type: _t, ...f }) => ({ ...f, scopeId })),
        skipDuplicates: true,
      });
      const threads = await tx.thread.createMany({
        data: data.threads.map(({ type: _t, ...t }) => ({ ...t, scopeId })),
        skipDuplicates: true,
      });
      const members = await tx.threadMember.createMany({
        data: keptMembers.map(({ type: _t, ...m }) => ({ ...m, scopeId })),
        skipDuplicates: true,
      });
      const proposals = await tx.proposal.createMany({
        data: keptProposals.map(({ type: _t, evidence, ...p }) => ({
          ...p,
          evidence: evidence as Prisma.InputJsonValue,
          scopeId,
        })),
        skipDuplicates: true,
      });
      const counts = {
        memories,
        facts: facts.count,
        threads: threads.count,
        members: members.count,
        proposals: proposals.count,
      };
      await recordAudit(tx, actor, {
        action: "scope.import",
        targetType: "scope",
        targetId: scopeId,
        targetLabel: data.scope.name,
        details: { createdScope: created, ...counts, skippedErased, signature },
      });
      return { scopeId, name: data.scope.name, createdScope: created, imported: counts, skippedErased, signature };
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
  // The planner's statistics, refreshed after a bulk load: the embedded database has no
  // autovacuum to do it, and without them search plans as if the tables were empty
  // (20,000 imported memories: search p50 148 ms before, 31 ms after).
  if (Object.values(result.imported).some((n) => n > 0))
    await db.$executeRawUnsafe("ANALYZE memory, memory_lexeme, thread_member");
  return result;
});
