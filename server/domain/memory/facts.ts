/**
 * Facts over time. A fact (subject, predicate, value) is stated by a memory and is in force
 * from its validFrom until the next value of the same subject and predicate; validUntil is
 * kept in step whenever a series changes, so reads never have to compute it. Reads are
 * chronological: what is true now by default, as of a given time, or every value in force
 * within a range.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { memoryVisible, requireScope } from "./access";
import { type TFact, ZListFactsInput } from "./schemas";

export const termKey = (term: string) => term.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

/** Writes a memory's facts and closes or reopens the series they join. */
export async function writeFacts(
  tx: Tx,
  memory: { id: string; scopeId: string; occurredAt: Date },
  facts: TFact[],
): Promise<void> {
  if (!facts.length) return;
  await tx.fact.createMany({
    data: facts.map((f) => ({
      scopeId: memory.scopeId,
      memoryId: memory.id,
      subject: f.subject.trim(),
      predicate: f.predicate.trim(),
      value: f.value.trim(),
      subjectKey: termKey(f.subject),
      predicateKey: termKey(f.predicate),
      validFrom: f.validFrom ?? memory.occurredAt,
    })),
  });
  await refreshSeries(
    tx,
    memory.scopeId,
    facts.map((f) => [termKey(f.subject), termKey(f.predicate)]),
  );
}

/**
 * Sets every fact's validUntil in the given series to the next value's validFrom (null for
 * the newest). Ties in validFrom are broken by write order, so the later write wins.
 */
export async function refreshSeries(tx: Tx, scopeId: string, series: [string, string][]): Promise<void> {
  const unique = [...new Map(series.map((s) => [`${s[0]}\u0000${s[1]}`, s])).values()];
  if (!unique.length) return;
  await tx.$executeRawUnsafe(
    `UPDATE fact f SET "validUntil" = s.next
       FROM (SELECT id, lead("validFrom") OVER (PARTITION BY "subjectKey", "predicateKey" ORDER BY "validFrom", "recordedAt", id) AS next
               FROM fact
              WHERE "scopeId" = $1
                AND ("subjectKey", "predicateKey") IN (SELECT * FROM unnest($2::text[], $3::text[]))
                -- A quarantined write's facts close no series until a curator admits it.
                AND NOT EXISTS (SELECT 1 FROM memory q WHERE q.id = fact."memoryId" AND q.quarantined)) s
      WHERE f.id = s.id AND f."validUntil" IS DISTINCT FROM s.next`,
    scopeId,
    unique.map((s) => s[0]),
    unique.map((s) => s[1]),
  );
}

export interface FactView {
  id: string;
  subject: string;
  predicate: string;
  value: string;
  validFrom: Date;
  validUntil: Date | null;
  current: boolean;
  memoryId: string;
}

export async function listFacts(actor: Actor, raw: unknown) {
  const input = parseInput(ZListFactsInput, raw);
  const scope = await requireScope(actor, input.scopeId, "read");
  const db = await getDb();
  const where: Prisma.FactWhereInput = {
    scopeId: scope.id,
    memory: memoryVisible(actor),
    ...(input.subject ? { subjectKey: termKey(input.subject) } : {}),
    ...(input.predicate ? { predicateKey: termKey(input.predicate) } : {}),
  };
  if (input.range) {
    // In force at some moment of [from, to): began before `to`, ended after `from`.
    const { from, to } = input.range;
    where.AND = [
      ...(to ? [{ validFrom: { lt: to } }] : []),
      ...(from ? [{ OR: [{ validUntil: null }, { validUntil: { gt: from } }] }] : []),
    ];
  } else {
    const at = input.asOf ?? new Date();
    where.validFrom = { lte: at };
    where.OR = [{ validUntil: null }, { validUntil: { gt: at } }];
  }
  const offset = decodeOffsetCursor(input.cursor);
  const [rows, total] = await Promise.all([
    db.fact.findMany({
      where,
      orderBy: [
        { validFrom: "asc" },
        { subjectKey: "asc" },
        { predicateKey: "asc" },
        { recordedAt: "asc" },
        { id: "asc" },
      ],
      skip: offset,
      take: input.limit,
      select: {
        id: true,
        subject: true,
        predicate: true,
        value: true,
        validFrom: true,
        validUntil: true,
        memoryId: true,
      },
    }),
    db.fact.count({ where }),
  ]);
  const items: FactView[] = rows.map((r) => ({ ...r, current: r.validUntil === null }));
  return {
    scope: scope.name,
    asOf: input.range ? null : (input.asOf ?? null),
    range: input.range ?? null,
    items,
    total,
    nextCursor: nextOffsetCursor(offset, rows.length, total),
  };
}
