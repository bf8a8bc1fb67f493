/**
 * Which held Tools tools/list offers an Agent Identity (its exposure): `all`, or a
 * `selection` — the Tools an operator pinned, then its most-used Tools, up to its listing
 * budget — or `auto`, all while they fit that budget and a selection past it. Every held
 * Tool stays callable (directly, or through find_tools' answers) whatever is listed.
 *
 * A selection is the same on every call of a day: usage is counted up to yesterday (UTC),
 * so a listing never reshuffles under a client's prompt cache between two turns.
 */
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { LIMITS } from "../../limits";
import { heldToolsWhere } from "../identities/holdings";

export type Exposure = "all" | "selection" | "auto";

export interface ListingPlan {
  exposure: Exposure;
  /** What the identity's listing does now: every held Tool, or the selection. */
  mode: "all" | "selection";
  budgetBytes: number;
  heldTools: number;
  heldBytes: number;
  /** Under a selection: the model-facing names listed, in order. */
  names?: string[];
  listedBytes: number;
}

const DAY = 86_400_000;

export function listingBudgetOf(row: { listingBudgetBytes: number | null }): number {
  return row.listingBudgetBytes ?? LIMITS.LISTING_BUDGET_BYTES.value;
}

/** The start of the current UTC day: usage before it is what a selection counts. */
export function dayStart(now = new Date()): Date {
  return new Date(Math.floor(now.getTime() / DAY) * DAY);
}

export async function planListing(identityId: string, now = new Date()): Promise<ListingPlan> {
  const db = await getDb();
  const identity = await db.agentIdentity.findUniqueOrThrow({
    where: { id: identityId },
    select: { exposure: true, listingBudgetBytes: true },
  });
  const budgetBytes = listingBudgetOf(identity);
  const where = heldToolsWhere(identityId);
  const held = await db.tool.aggregate({ where, _count: { _all: true }, _sum: { modelFacingBytes: true } });
  const heldTools = held._count._all;
  const heldBytes = held._sum.modelFacingBytes ?? 0;
  const exposure = identity.exposure as Exposure;
  if (exposure === "all" || (exposure === "auto" && heldBytes <= budgetBytes))
    return { exposure, mode: "all", budgetBytes, heldTools, heldBytes, listedBytes: heldBytes };
  const { names, bytes } = await selectTools(identityId, where, budgetBytes, now);
  return { exposure, mode: "selection", budgetBytes, heldTools, heldBytes, names, listedBytes: bytes };
}

async function selectTools(
  identityId: string,
  where: Prisma.ToolWhereInput,
  budgetBytes: number,
  now: Date,
): Promise<{ names: string[]; bytes: number }> {
  const db = await getDb();
  const pins = await db.toolPin.findMany({
    where: { identityId },
    orderBy: [{ pinnedAt: "asc" }, { modelFacingName: "asc" }],
    select: { modelFacingName: true },
  });
  const until = dayStart(now);
  const used = await db.callLog.groupBy({
    by: ["toolName"],
    where: {
      identityId,
      builtIn: false,
      startedAt: { gte: new Date(until.getTime() - LIMITS.LISTING_USAGE_DAYS.value * DAY), lt: until },
    },
    _count: { _all: true },
  });
  const mostUsed = used
    .sort((a, b) => b._count._all - a._count._all || (a.toolName < b.toolName ? -1 : 1))
    .map((u) => u.toolName);
  const candidates = [...new Set([...pins.map((p) => p.modelFacingName), ...mostUsed])];
  if (!candidates.length) return { names: [], bytes: 0 };
  const rows = await db.tool.findMany({
    where: { AND: [where, { modelFacingName: { in: candidates } }] },
    select: { modelFacingName: true, modelFacingBytes: true },
  });
  const size = new Map(rows.map((r) => [r.modelFacingName as string, r.modelFacingBytes]));
  const names: string[] = [];
  let bytes = 0;
  for (const name of candidates) {
    const b = size.get(name);
    // Not held (any more), or too big for what is left: the next one may still fit.
    if (b === undefined || bytes + b > budgetBytes) continue;
    names.push(name);
    bytes += b;
  }
  return { names, bytes };
}
