/**
 * Why an identity no longer holds a Tool it calls by name: a model keeps calling the names it
 * saw, so "no such Tool" would leave it guessing. The reasons are Lost recently's
 * (identities/losses.ts): removed by a check, became incompatible, SDK host went silent,
 * Source deleted, Source unassigned — with when. Only names the identity really held are
 * explained; any other name stays unknown.
 */
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { COMPATIBILITY_LABELS, type CompatibilityState } from "../catalog/compatibility";
import { type LOSS_REASONS, lossReasonText } from "../identities/losses";

export interface NotHeld {
  reason: keyof typeof LOSS_REASONS;
  at: Date;
  source: string;
  message: string;
}

const LOSS_KINDS = ["removed", "became_incompatible", "withdrawn", "source_deleted"] as const;

export async function whyNotHeld(identityId: string, name: string, now = new Date()): Promise<NotHeld | null> {
  const db = await getDb();
  const since = new Date(now.getTime() - LIMITS.LOSSES_WINDOW_DAYS.value * 86_400_000);
  const events = await db.assignmentEvent.findMany({
    where: { identityId },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { sourceId: true, sourceName: true, kind: true, at: true },
  });
  if (!events.length) return null;
  const latest = new Map(events.map((e) => [e.sourceId, e]));

  // The Tool is still in the catalog under that name, but its Source was unassigned.
  const tool = await db.tool.findFirst({ where: { modelFacingName: name }, select: { sourceId: true } });
  const unassigned = tool ? latest.get(tool.sourceId) : undefined;
  if (unassigned?.kind === "unassigned")
    return explain("source_unassigned", unassigned.at, unassigned.sourceName, name);

  // The catalog changed under an assigned Source: the newest loss of that name.
  const sources = [...new Set(events.map((e) => e.sourceId))];
  const change = await db.catalogChange.findFirst({
    where: { modelFacingName: name, kind: { in: [...LOSS_KINDS] }, sourceId: { in: sources }, at: { gte: since } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { kind: true, at: true, sourceName: true, detail: true },
  });
  if (!change) return null;
  return explain(change.kind as NotHeld["reason"], change.at, change.sourceName, name, change.detail);
}

function explain(reason: NotHeld["reason"], at: Date, source: string, name: string, detail?: string | null): NotHeld {
  const state = detail && detail in COMPATIBILITY_LABELS ? COMPATIBILITY_LABELS[detail as CompatibilityState] : null;
  const why = `${lossReasonText(reason, detail)}${state ? ` (${state})` : ""}`;
  return {
    reason,
    at,
    source,
    message: `This Agent Identity no longer holds "${name}": ${why.charAt(0).toLowerCase()}${why.slice(1)} — Source "${source}", ${at.toISOString()}. Use another Tool (find_tools searches those it holds), or ask an operator to restore it.`,
  };
}
