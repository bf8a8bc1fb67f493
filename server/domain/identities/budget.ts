/**
 * An Agent Identity's definition budget: the model-facing definitions of every Tool it
 * holds plus its instructions, against LIMITS.IDENTITY_BUDGET_BYTES. Sources keep their
 * own totals current when their catalogs change, so a budget is a sum over an identity's
 * Sources, never over its Tools.
 */
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { LIMITS } from "../../limits";
import { REFERENCE_BYTES, type ReferenceSize } from "./reference-tools";

export interface Budget {
  usedBytes: number;
  limitBytes: number;
  toolsBytes: number;
  instructionsBytes: number;
  freeBytes: number;
  overByBytes: number;
}

export type IdentityState = "ok" | "over_budget";

export function makeBudget(toolsBytes: number, instructionsBytes: number): Budget {
  const limitBytes = LIMITS.IDENTITY_BUDGET_BYTES.value;
  const usedBytes = toolsBytes + instructionsBytes;
  return {
    usedBytes,
    limitBytes,
    toolsBytes,
    instructionsBytes,
    freeBytes: Math.max(0, limitBytes - usedBytes),
    overByBytes: Math.max(0, usedBytes - limitBytes),
  };
}

export const stateOf = (b: Budget): IdentityState => (b.overByBytes > 0 ? "over_budget" : "ok");

/** How many more Tools of each reference size fit (a planning estimate, not a guarantee). */
export function planningEstimate(b: Budget): Record<ReferenceSize, number> {
  return {
    small: Math.floor(b.freeBytes / REFERENCE_BYTES.small),
    mid: Math.floor(b.freeBytes / REFERENCE_BYTES.mid),
    large: Math.floor(b.freeBytes / REFERENCE_BYTES.large),
  };
}

export interface IdentityTotals {
  id: string;
  name: string;
  description: string;
  instructionsBytes: number;
  sources: number;
  tools: number;
  toolsBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Totals of every identity (or the given ones) in one query. A silent SDK host's Tools
 * are withdrawn, so they count neither as held nor against the budget.
 */
export async function identityTotals(
  filter: { ids?: string[]; sourceId?: string; search?: string } = {},
  tx?: Tx,
): Promise<IdentityTotals[]> {
  const db = tx ?? (await getDb());
  const ids = filter.ids ?? null;
  const search = filter.search ? `%${filter.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db.$queryRaw<
    {
      id: string;
      name: string;
      description: string;
      instructionsBytes: number;
      sources: bigint;
      tools: bigint | null;
      toolsBytes: bigint | null;
      createdAt: Date;
      updatedAt: Date;
    }[]
  >`
    SELECT i.id, i.name, i.description, i."instructionsBytes", i."createdAt", i."updatedAt",
           COUNT(a."sourceId") AS sources,
           SUM(CASE WHEN s."hostSilentSince" IS NULL THEN s."compatibleToolCount" ELSE 0 END) AS tools,
           SUM(CASE WHEN s."hostSilentSince" IS NULL THEN s."modelFacingBytes" ELSE 0 END) AS "toolsBytes"
    FROM agent_identity i
    LEFT JOIN source_assignment a ON a."identityId" = i.id
    LEFT JOIN source s ON s.id = a."sourceId"
    WHERE (${ids}::text[] IS NULL OR i.id = ANY(${ids}::text[]))
      AND (${search}::text IS NULL OR i.name ILIKE ${search}::text)
      AND (${filter.sourceId ?? null}::text IS NULL OR EXISTS (
        SELECT 1 FROM source_assignment x WHERE x."identityId" = i.id AND x."sourceId" = ${filter.sourceId ?? null}::text))
    GROUP BY i.id
    ORDER BY i.name`;
  return rows.map((r) => ({
    ...r,
    sources: Number(r.sources),
    tools: Number(r.tools ?? 0),
    toolsBytes: Number(r.toolsBytes ?? 0),
  }));
}

/** The budget of one identity (inside a transaction when the caller is about to change it). */
export async function budgetOf(identityId: string, tx?: Tx): Promise<Budget | null> {
  const [totals] = await identityTotals({ ids: [identityId] }, tx);
  return totals ? makeBudget(totals.toolsBytes, totals.instructionsBytes) : null;
}
