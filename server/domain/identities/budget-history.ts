import { getDb } from "../../db";
import { notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { operation } from "../operation";
import { identityTotals, makeBudget } from "./budget";
import { ZIdentityIdInput } from "./schemas";

/** Writes a snapshot for each identity (all, or the given ones) whose use changed; returns how many. */
export async function recordBudgetSnapshots(ids?: string[], at = new Date()): Promise<number> {
  const db = await getDb();
  const totals = await identityTotals(ids ? { ids } : {});
  if (totals.length === 0) return 0;
  const latest = await db.$queryRaw<
    { identityId: string; toolsBytes: number; instructionsBytes: number; tools: number }[]
  >`
    SELECT DISTINCT ON ("identityId") "identityId", "toolsBytes", "instructionsBytes", tools
    FROM budget_snapshot
    WHERE "identityId" = ANY(${totals.map((t) => t.id)}::text[])
    ORDER BY "identityId", at DESC`;
  const last = new Map(latest.map((l) => [l.identityId, l]));
  const changed = totals.filter((t) => {
    const l = last.get(t.id);
    return !l || l.toolsBytes !== t.toolsBytes || l.instructionsBytes !== t.instructionsBytes || l.tools !== t.tools;
  });
  if (changed.length === 0) return 0;
  await db.budgetSnapshot.createMany({
    data: changed.map((t) => ({
      identityId: t.id,
      at,
      toolsBytes: t.toolsBytes,
      instructionsBytes: t.instructionsBytes,
      tools: t.tools,
    })),
  });
  return changed.length;
}

/** The identity's latest snapshots, oldest first, each with its budget worked out. */
export const budgetHistory = operation({ role: "viewer", input: ZIdentityIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  if (!(await db.agentIdentity.findUnique({ where: { id }, select: { id: true } }))) throw notFound("Agent Identity");
  const rows = await db.budgetSnapshot.findMany({
    where: { identityId: id },
    orderBy: { at: "desc" },
    take: LIMITS.BUDGET_SNAPSHOTS_SHOWN.value,
    select: { at: true, toolsBytes: true, instructionsBytes: true, tools: true },
  });
  return rows
    .reverse()
    .map((r) => ({ at: r.at, tools: r.tools, budget: makeBudget(r.toolsBytes, r.instructionsBytes) }));
});
