/**
 * "Lost recently": what an identity stopped holding in the last 30 days (and what it
 * gained), derived from catalog_change rows — written once per Tool per Source change —
 * and the identity's own assignment history. Nothing is written per identity when a
 * catalog changes, so a check that removes 4,096 Tools from a Connection shared by 1,000
 * identities writes 4,096 rows, not 4 million.
 */
import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { notFound } from "../../errors";
import type { CatalogChangeKind } from "../../generated/prisma/enums";
import { LIMITS } from "../../limits";
import { HOST_CLOSED } from "../catalog/changes";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { ZLossesInput } from "./schemas";

export const LOSS_REASONS = {
  removed: "Removed from its Source's catalog",
  became_incompatible: "Became incompatible with models",
  withdrawn: "Its SDK Tool Host went silent",
  source_deleted: "Its Source was deleted",
  source_unassigned: "Its Source was unassigned",
} as const;
export const GAIN_REASONS = {
  added: "Added to its Source's catalog",
  became_compatible: "Became compatible with models",
  restored: "Its SDK Tool Host is back",
  source_assigned: "Its Source was assigned",
} as const;

/** A withdrawal's words: the host said goodbye (it shut down), or went silent past its timeout. */
export function lossReasonText(reason: keyof typeof LOSS_REASONS, detail: string | null | undefined): string {
  return reason === "withdrawn" && detail === HOST_CLOSED
    ? "Its SDK Tool Host shut down (it said goodbye)"
    : LOSS_REASONS[reason];
}

type LossReason = keyof typeof LOSS_REASONS;
type GainReason = keyof typeof GAIN_REASONS;

export interface HoldingChange {
  id: string;
  at: Date;
  direction: "lost" | "gained";
  reason: LossReason | GainReason;
  reasonText: string;
  sourceId: string;
  sourceName: string;
  /** Per-Tool entries name the Tool; (un)assignments count the Tools instead. */
  nativeName: string | null;
  modelFacingName: string | null;
  toolCount: number;
  detail: string | null;
}

const LOSS_KINDS = ["removed", "became_incompatible", "withdrawn", "source_deleted"] as const;
const GAIN_KINDS = ["added", "became_compatible", "restored"] as const;

interface Interval {
  sourceId: string;
  from: Date;
  to: Date | null;
}

function intervalsFrom(events: { sourceId: string; kind: "assigned" | "unassigned"; at: Date }[]): Interval[] {
  const open = new Map<string, Date>();
  const intervals: Interval[] = [];
  for (const e of events) {
    if (e.kind === "assigned") open.set(e.sourceId, e.at);
    else {
      const from = open.get(e.sourceId);
      if (from) intervals.push({ sourceId: e.sourceId, from, to: e.at });
      open.delete(e.sourceId);
    }
  }
  for (const [sourceId, from] of open) intervals.push({ sourceId, from, to: null });
  return intervals;
}

/**
 * The identity's changes, newest first; within one moment (a check's Tools share its
 * time) assignment events first, then by model-facing name. The catalog's changes are
 * paged in the database and merged with the identity's few assignment events, so a
 * page deep in 20,000 changes reads one page's worth of rows, not every row before it.
 */
export async function listHoldingChanges(
  actor: Actor,
  raw: { id: string; include?: "losses" | "gains" | "all"; search?: string; cursor?: string; limit?: number },
  now = new Date(),
) {
  requireRole(actor, "viewer");
  const input = parseInput(ZLossesInput, raw);
  const offset = decodeOffsetCursor(input.cursor);
  const db = await getDb();
  if (!(await db.agentIdentity.findUnique({ where: { id: input.id }, select: { id: true } })))
    throw notFound("Agent Identity");

  const since = new Date(now.getTime() - LIMITS.LOSSES_WINDOW_DAYS.value * 86_400_000);
  const events = await db.assignmentEvent.findMany({
    where: { identityId: input.id },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  const intervals = intervalsFrom(events).filter((i) => !i.to || i.to > since);
  const kinds = [...(input.include !== "gains" ? LOSS_KINDS : []), ...(input.include !== "losses" ? GAIN_KINDS : [])];
  const search = input.search?.toLowerCase();

  const held = (kinds: CatalogChangeKind[]): Prisma.CatalogChangeWhereInput | null =>
    intervals.length
      ? {
          kind: { in: kinds },
          modelFacingName: { not: null },
          OR: intervals.map((i) => ({
            sourceId: i.sourceId,
            at: { gte: i.from > since ? i.from : since, ...(i.to ? { lt: i.to } : {}) },
          })),
        }
      : null;
  const listed = held(kinds);
  const changeWhere: Prisma.CatalogChangeWhereInput | null =
    listed && search
      ? {
          AND: [
            listed,
            {
              OR: [
                { modelFacingName: { contains: search, mode: "insensitive" } },
                { nativeName: { contains: search, mode: "insensitive" } },
                { sourceName: { contains: search, mode: "insensitive" } },
              ],
            },
          ],
        }
      : listed;
  // The summary always counts both ways, whichever way the list is filtered or searched.
  const everyWhere = held([...LOSS_KINDS, ...GAIN_KINDS]);

  const assignmentKinds = [
    ...(input.include !== "gains" ? (["unassigned"] as const) : []),
    ...(input.include !== "losses" ? (["assigned"] as const) : []),
  ];
  const recentEvents = events
    .filter(
      (e) =>
        e.at >= since &&
        (assignmentKinds as readonly string[]).includes(e.kind) &&
        (!search || e.sourceName.toLowerCase().includes(search)),
    )
    .reverse();

  // Every assignment event could sort before the page: the changes on it start at most
  // that many rows earlier than `offset`.
  const skip = Math.max(0, offset - recentEvents.length);
  const [changes, changeTotal, byDirection] = await Promise.all([
    changeWhere
      ? db.catalogChange.findMany({
          where: changeWhere,
          orderBy: [{ at: "desc" }, { modelFacingName: "asc" }, { id: "asc" }],
          skip,
          take: offset + input.limit - skip,
        })
      : Promise.resolve([]),
    changeWhere ? db.catalogChange.count({ where: changeWhere }) : Promise.resolve(0),
    everyWhere ? db.catalogChange.groupBy({ by: ["kind"], where: everyWhere, _count: true }) : Promise.resolve([]),
  ]);

  const fromChanges: HoldingChange[] = changes.map((c) => {
    const lost = (LOSS_KINDS as readonly string[]).includes(c.kind);
    const reason = c.kind as LossReason | GainReason;
    return {
      id: c.id,
      at: c.at,
      direction: lost ? "lost" : "gained",
      reason,
      reasonText: lost ? lossReasonText(reason as LossReason, c.detail) : GAIN_REASONS[reason as GainReason],
      sourceId: c.sourceId,
      sourceName: c.sourceName,
      nativeName: c.nativeName,
      modelFacingName: c.modelFacingName,
      toolCount: 1,
      detail: c.detail,
    };
  });
  const fromEvents: HoldingChange[] = recentEvents.map((e) => {
    const lost = e.kind === "unassigned";
    const reason = lost ? "source_unassigned" : "source_assigned";
    return {
      id: e.id,
      at: e.at,
      direction: lost ? "lost" : "gained",
      reason,
      reasonText: lost ? LOSS_REASONS.source_unassigned : GAIN_REASONS.source_assigned,
      sourceId: e.sourceId,
      sourceName: e.sourceName,
      nativeName: null,
      modelFacingName: null,
      toolCount: e.toolCount,
      detail: null,
    };
  });
  // Row `skip + i` of the whole list is row i of this merge (see mergeNewestFirst).
  const merged = mergeNewestFirst(fromEvents, fromChanges);
  const page = merged.slice(offset - skip, offset - skip + input.limit);
  // Link each lost or gained Tool to the catalog while it is still there.
  const named = page.filter((i) => i.nativeName);
  const present = named.length
    ? await db.tool.findMany({
        where: { OR: named.map((i) => ({ sourceId: i.sourceId, nativeName: i.nativeName as string })) },
        select: { id: true, sourceId: true, nativeName: true },
      })
    : [];
  const toolIds = new Map(present.map((t) => [`${t.sourceId}\u0000${t.nativeName}`, t.id]));
  const items = page.map((i) => ({
    ...i,
    toolId: i.nativeName ? (toolIds.get(`${i.sourceId}\u0000${i.nativeName}`) ?? null) : null,
  }));
  const allEvents = events.filter((e) => e.at >= since);
  const total = changeTotal + fromEvents.length;
  const count = (k: readonly string[]) =>
    byDirection.filter((g) => k.includes(g.kind)).reduce((n, g) => n + g._count, 0);
  return {
    since,
    items,
    total,
    nextCursor: nextOffsetCursor(offset, items.length, total),
    summary: {
      lostTools:
        count(LOSS_KINDS) + allEvents.filter((e) => e.kind === "unassigned").reduce((n, e) => n + e.toolCount, 0),
      gainedTools:
        count(GAIN_KINDS) + allEvents.filter((e) => e.kind === "assigned").reduce((n, e) => n + e.toolCount, 0),
    },
  };
}

/**
 * Merges all of the identity's assignment events with a run of its catalog changes, both
 * newest first, keeping each list's own order (the database's, for changes) and putting
 * an event before a change of the same moment. When the run starts after `skip` changes,
 * every row from the run's first change on sits at `skip` plus its index here; the events
 * merged in ahead of that change sort before the page the run was read for.
 */
export function mergeNewestFirst<T extends { at: Date }>(events: T[], changes: T[]): T[] {
  const out: T[] = [];
  let e = 0;
  for (const change of changes) {
    while (e < events.length && (events[e] as T).at.getTime() >= change.at.getTime()) out.push(events[e++] as T);
    out.push(change);
  }
  while (e < events.length) out.push(events[e++] as T);
  return out;
}
