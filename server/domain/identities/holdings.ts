import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { notFound } from "../../errors";
import { operation } from "../operation";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { ZHoldingsInput } from "./schemas";

/**
 * The Tools an identity holds: every Compatible Tool of its assigned Sources, except
 * those of silent SDK hosts, under their model-facing names (unique catalog-wide, so
 * unique within the identity).
 */
export function heldToolsWhere(identityId: string): Prisma.ToolWhereInput {
  return {
    compatibility: "compatible",
    source: { hostSilentSince: null, assignments: { some: { identityId } } },
  };
}

export const listHoldings = operation({ role: "viewer", input: ZHoldingsInput }, async (_actor, input) => {
  const db = await getDb();
  if (!(await db.agentIdentity.findUnique({ where: { id: input.id }, select: { id: true } })))
    throw notFound("Agent Identity");
  const offset = decodeOffsetCursor(input.cursor);
  const search = input.search?.trim();
  const where: Prisma.ToolWhereInput = {
    ...heldToolsWhere(input.id),
    sourceId: input.sourceId,
    OR: search
      ? [
          { modelFacingName: { contains: search, mode: "insensitive" } },
          { nativeName: { contains: search, mode: "insensitive" } },
          { description: { contains: search, mode: "insensitive" } },
        ]
      : undefined,
  };
  const [rows, total] = await Promise.all([
    db.tool.findMany({
      where,
      orderBy: [{ modelFacingName: "asc" }, { id: "asc" }],
      skip: offset,
      take: input.limit,
      select: {
        id: true,
        nativeName: true,
        modelFacingName: true,
        description: true,
        modelFacingBytes: true,
        sourceId: true,
        source: { select: { name: true } },
      },
    }),
    db.tool.count({ where }),
  ]);
  return {
    items: rows.map((t) => ({
      id: t.id,
      modelFacingName: t.modelFacingName as string,
      nativeName: t.nativeName,
      description: t.description,
      bytes: t.modelFacingBytes,
      sourceId: t.sourceId,
      sourceName: t.source.name,
    })),
    total,
    nextCursor: nextOffsetCursor(offset, rows.length, total),
  };
});

/**
 * The identities that hold a Tool (first `limit`, and how many in all), each saying whether
 * it pins the Tool (by its model-facing name) for its selection.
 */
export async function identitiesHolding(
  tool: { sourceId: string; compatibility: string; withdrawn: boolean; modelFacingName: string | null },
  limit = 50,
) {
  if (tool.compatibility !== "compatible" || tool.withdrawn || !tool.modelFacingName)
    return { total: 0, items: [] as { id: string; name: string; pinned: boolean }[] };
  const db = await getDb();
  const where = { assignments: { some: { sourceId: tool.sourceId } } };
  const [holders, total] = await Promise.all([
    db.agentIdentity.findMany({ where, select: { id: true, name: true }, orderBy: { name: "asc" }, take: limit }),
    db.agentIdentity.count({ where }),
  ]);
  const pins = await db.toolPin.findMany({
    where: { modelFacingName: tool.modelFacingName, identityId: { in: holders.map((h) => h.id) } },
    select: { identityId: true },
  });
  const pinned = new Set(pins.map((p) => p.identityId));
  return { total, items: holders.map((h) => ({ ...h, pinned: pinned.has(h.id) })) };
}
