/**
 * The consolidator: finds what makes a scope's memory worse to read and files proposals,
 * changing nothing itself.
 * - exact duplicates (same content hash): discard the later copies;
 * - near-duplicates (MinHash LSH candidates, confirmed by word-shingle Jaccard): merge, unless
 *   the two contradict each other — then nothing is proposed;
 * - facts that a newer value for the same subject and predicate replaced: supersede the
 *   memory that stated them, when every fact it states is outdated;
 * - memories that say almost nothing ("ok", "thanks!"): discard.
 * Idempotent: a proposal is keyed by its kind and memories, so a second run files nothing
 * new, and a rejected set is never proposed again. A memory already in a pending proposal
 * is left alone until that one is decided. A quarantined memory (held for a curator's
 * admission) is in no pass: its admit proposal is its review.
 */
import { createHash } from "node:crypto";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { log } from "../../log";
import { parseInput } from "../validation";
import { requireScope } from "./access";
import { contradiction, type StatedFact } from "./contradiction";
import { ZScopeIdInput } from "./schemas";
import { jaccard, shingles } from "./text";

/** Shingle Jaccard at or above which two memories count as near-duplicates. */
export const NEAR_DUPLICATE = 0.6;
/** Band buckets larger than this are boilerplate shared by many memories, not duplicates. */
const MAX_BUCKET = 64;

export interface ProposalDraft {
  kind: "merge" | "supersede" | "discard";
  memoryIds: string[];
  rationale: string;
  score: number;
  evidence: Prisma.InputJsonValue;
}

export function proposalKey(kind: string, memoryIds: string[]): string {
  return `${kind}:${[...memoryIds].sort().join(",")}`;
}

/** The state of the memories a proposal touches; accepting after it moved is PROPOSAL_STALE. */
export async function fingerprintOf(tx: Prisma.TransactionClient | Awaited<ReturnType<typeof getDb>>, ids: string[]) {
  const rows = await tx.memory.findMany({
    where: { id: { in: ids } },
    select: { id: true, supersededById: true, discardedAt: true, erasedAt: true, contentHash: true },
    orderBy: { id: "asc" },
  });
  const text = ids
    .map((id) => rows.find((r) => r.id === id))
    .map((r) =>
      r
        ? `${r.id}|${r.supersededById ?? ""}|${r.discardedAt?.toISOString() ?? ""}|${r.erasedAt?.toISOString() ?? ""}|${r.contentHash ?? ""}`
        : "missing",
    )
    .join("\n");
  return createHash("sha256").update(text).digest("hex");
}

const CURRENT = `"supersededById" IS NULL AND "discardedAt" IS NULL AND "erasedAt" IS NULL AND NOT quarantined`;

async function exactDuplicates(scopeId: string): Promise<ProposalDraft[]> {
  const db = await getDb();
  const groups = await db.$queryRawUnsafe<{ ids: string[] }[]>(
    `SELECT array_agg(id ORDER BY "occurredAt", seq) AS ids FROM memory
      WHERE "scopeId" = $1 AND ${CURRENT} AND "contentHash" IS NOT NULL
      GROUP BY "contentHash" HAVING count(*) > 1`,
    scopeId,
  );
  return groups.flatMap(({ ids }) => {
    const [keep, ...copies] = ids;
    return copies.map(
      (copy): ProposalDraft => ({
        kind: "discard",
        memoryIds: [copy, keep as string],
        rationale:
          "Exact duplicate: it reads the same as an earlier memory (ignoring case and spacing). Discarding it keeps the earlier one, with this one's thread memberships.",
        score: 1,
        evidence: { reason: "exact_duplicate", discard: copy, duplicateOf: keep as string },
      }),
    );
  });
}

async function nearDuplicates(scopeId: string): Promise<ProposalDraft[]> {
  const db = await getDb();
  const buckets = await db.$queryRawUnsafe<{ ids: string[] }[]>(
    `SELECT array_agg(id) AS ids FROM (
       SELECT id, unnest("lshBands") AS band FROM memory WHERE "scopeId" = $1 AND ${CURRENT}
     ) x GROUP BY band HAVING count(*) BETWEEN 2 AND ${MAX_BUCKET}`,
    scopeId,
  );
  const pairs = new Set<string>();
  for (const { ids } of buckets) {
    const sorted = [...ids].sort();
    for (let i = 0; i < sorted.length; i++)
      for (let j = i + 1; j < sorted.length; j++) pairs.add(`${sorted[i]}\u0000${sorted[j]}`);
  }
  if (!pairs.size) return [];
  const involved = [...new Set([...pairs].flatMap((p) => p.split("\u0000")))];
  const memories = new Map<
    string,
    { body: string; contentHash: string | null; occurredAt: Date; shingles: Set<string>; facts: StatedFact[] }
  >();
  for (let i = 0; i < involved.length; i += 1000) {
    const rows = await db.memory.findMany({
      where: { id: { in: involved.slice(i, i + 1000) } },
      select: {
        id: true,
        body: true,
        contentHash: true,
        occurredAt: true,
        facts: { select: { subject: true, predicate: true, value: true } },
      },
    });
    for (const r of rows)
      if (r.body)
        memories.set(r.id, {
          body: r.body,
          contentHash: r.contentHash,
          occurredAt: r.occurredAt,
          shingles: shingles(r.body),
          facts: r.facts,
        });
  }
  const drafts: ProposalDraft[] = [];
  for (const pair of pairs) {
    const [a, b] = pair.split("\u0000") as [string, string];
    const ma = memories.get(a);
    const mb = memories.get(b);
    // Exact duplicates are proposed for discarding instead.
    if (!ma || !mb || ma.contentHash === mb.contentHash) continue;
    const similarity = jaccard(ma.shingles, mb.shingles);
    if (similarity < NEAR_DUPLICATE) continue;
    if (contradiction(ma.body, mb.body, ma.facts, mb.facts)) continue;
    // The fuller wording stands for both.
    const [keep, other] = mb.shingles.size > ma.shingles.size ? [b, a] : [a, b];
    drafts.push({
      kind: "merge",
      memoryIds: [keep, other],
      rationale: `Near-duplicates (${Math.round(similarity * 100)}% of their word pairs shared) that do not contradict each other: one repeats or adds to the other. Merging writes one memory with the fuller wording, which supersedes both and takes over their thread memberships and pins.`,
      score: Math.round(similarity * 1000) / 1000,
      // Ids and measures only: evidence must not copy text that erasure has to find.
      evidence: { reason: "near_duplicate", similarity, keepWordingOf: keep },
    });
  }
  return drafts.sort((x, y) => y.score - x.score);
}

async function outdatedFacts(scopeId: string): Promise<ProposalDraft[]> {
  const db = await getDb();
  // A memory all of whose facts have a newer value, paired with the memory stating the newest one.
  const rows = await db.$queryRawUnsafe<
    { old: string; new: string; subject: string; predicate: string; oldValue: string; newValue: string; since: Date }[]
  >(
    `SELECT o."memoryId" AS old, n."memoryId" AS new, o.subject, o.predicate, o.value AS "oldValue", n.value AS "newValue", n."validFrom" AS since
       FROM fact o
       JOIN fact n ON n."scopeId" = o."scopeId" AND n."subjectKey" = o."subjectKey" AND n."predicateKey" = o."predicateKey"
                  AND n."validFrom" = o."validUntil" AND n."memoryId" <> o."memoryId"
       JOIN memory om ON om.id = o."memoryId"
       JOIN memory nm ON nm.id = n."memoryId"
      WHERE o."scopeId" = $1 AND o."validUntil" IS NOT NULL AND lower(n.value) <> lower(o.value)
        AND om."supersededById" IS NULL AND om."discardedAt" IS NULL AND om."erasedAt" IS NULL AND NOT om.quarantined AND NOT nm.quarantined
        AND nm."supersededById" IS NULL AND nm."discardedAt" IS NULL AND nm."erasedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM fact still WHERE still."memoryId" = o."memoryId" AND still."validUntil" IS NULL)
      ORDER BY n."validFrom" DESC`,
    scopeId,
  );
  const seen = new Set<string>();
  const drafts: ProposalDraft[] = [];
  for (const r of rows) {
    if (seen.has(r.old)) continue;
    seen.add(r.old);
    drafts.push({
      kind: "supersede",
      memoryIds: [r.old, r.new],
      rationale: `Outdated: "${r.subject} ${r.predicate}" changed from "${r.oldValue}" to "${r.newValue}" on ${r.since.toISOString().slice(0, 10)}, and every fact this memory states has a newer value. Superseding it keeps it readable by id but out of searches.`,
      score: 0.9,
      evidence: {
        reason: "newer_fact",
        supersede: r.old,
        by: r.new,
        subject: r.subject,
        predicate: r.predicate,
        oldValue: r.oldValue,
        newValue: r.newValue,
        since: r.since.toISOString(),
      },
    });
  }
  return drafts;
}

/** Words that carry no content on their own: acknowledgements, thanks, assent. */
const FILLER = new Set(
  "ok okay k kk thanks thank thx ty you cheers got it sounds good great cool nice done noted yes yep yeah no nope sure lgtm ack roger will do np alright fine perfect awesome all right agreed understood".split(
    " ",
  ),
);
/** Bytes a memory may have and still be proposed as content-free (a sentence of filler words). */
const FILLER_BYTES = 80;

/** A body made only of filler words, punctuation and emoji ("ok", "Thanks, got it 👍"). */
export function contentFree(body: string): boolean {
  const words = body
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
  return words.every((w) => FILLER.has(w.replace(/'/g, "")));
}

async function noise(scopeId: string): Promise<ProposalDraft[]> {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ id: string; words: number; body: string }[]>(
    `SELECT m.id, length(m."searchVector") AS words, m.body FROM memory m
      WHERE m."scopeId" = $1 AND m."supersededById" IS NULL AND m."discardedAt" IS NULL AND m."erasedAt" IS NULL
        AND NOT m.quarantined AND m."bodyBytes" <= ${FILLER_BYTES}
        AND NOT EXISTS (SELECT 1 FROM fact f WHERE f."memoryId" = m.id)
        AND NOT EXISTS (SELECT 1 FROM thread_member t WHERE t."memoryId" = m.id AND t."pinnedAt" IS NOT NULL)`,
    scopeId,
  );
  // Short with at most one searchable word, or only filler words however many.
  return rows
    .filter((r) => (Buffer.byteLength(r.body) <= 24 && r.words <= 1) || contentFree(r.body))
    .map((r) => ({
      kind: "discard",
      memoryIds: [r.id],
      rationale: `Says almost nothing (${r.words} searchable word${r.words === 1 ? "" : "s"}, no fact, not pinned): it only adds noise to searches. Discarding keeps it readable by id.`,
      score: 0.5,
      evidence: { reason: "no_content", words: r.words },
    }));
}

export interface ConsolidationReport {
  scopeId: string;
  filed: number;
  byKind: Record<"merge" | "supersede" | "discard", number>;
  considered: number;
  ms: number;
}

/** One consolidator pass over a scope (the scheduler's and "Run now"'s shared work). */
export async function consolidateScope(scopeId: string): Promise<ConsolidationReport> {
  const started = performance.now();
  const db = await getDb();
  const drafts = [
    ...(await outdatedFacts(scopeId)),
    ...(await exactDuplicates(scopeId)),
    ...(await nearDuplicates(scopeId)),
    ...(await noise(scopeId)),
  ];
  const existing = await db.proposal.findMany({
    where: { scopeId },
    select: { key: true, status: true, memoryIds: true },
  });
  const known = new Set(existing.map((p) => p.key));
  // A memory already under review is not proposed again until that review is decided.
  const busy = new Set(existing.filter((p) => p.status === "pending").flatMap((p) => p.memoryIds));
  const byKind = { merge: 0, supersede: 0, discard: 0 };
  const fresh: (ProposalDraft & { key: string })[] = [];
  for (const draft of drafts) {
    const key = proposalKey(draft.kind, draft.memoryIds);
    if (known.has(key) || draft.memoryIds.some((id) => busy.has(id))) continue;
    fresh.push({ ...draft, key });
    known.add(key);
    for (const id of draft.memoryIds) busy.add(id);
  }
  for (let i = 0; i < fresh.length; i += 200) {
    const batch = fresh.slice(i, i + 200);
    const fingerprints = await Promise.all(batch.map((d) => fingerprintOf(db, d.memoryIds)));
    const { count } = await db.proposal.createMany({
      data: batch.map((d, j) => ({
        scopeId,
        kind: d.kind,
        memoryIds: d.memoryIds,
        key: d.key,
        rationale: d.rationale,
        score: d.score,
        evidence: d.evidence,
        fingerprint: fingerprints[j] as string,
      })),
      skipDuplicates: true,
    });
    for (const d of batch.slice(0, count)) byKind[d.kind]++;
  }
  await db.scope.update({ where: { id: scopeId }, data: { lastConsolidatedAt: new Date() } });
  const report = {
    scopeId,
    filed: byKind.merge + byKind.supersede + byKind.discard,
    byKind,
    considered: drafts.length,
    ms: Math.round(performance.now() - started),
  };
  log.info(report, "consolidator pass");
  return report;
}

export async function runConsolidator(actor: Actor, raw: unknown): Promise<ConsolidationReport> {
  const { scopeId } = parseInput(ZScopeIdInput, raw);
  await requireScope(actor, scopeId, "write");
  return consolidateScope(scopeId);
}
