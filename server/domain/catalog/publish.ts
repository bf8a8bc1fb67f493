/**
 * Replaces a Source's catalog with a validated publication, atomically: one
 * transaction diffs it against the active catalog, assigns model-facing names, writes
 * the Tools, records what changed, and refreshes the Source's totals. Used by MCP
 * catalog checks and SDK Tool Host registrations alike.
 */
import { randomUUID } from "node:crypto";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { utf8Bytes } from "./canonical";
import { evaluateCompatibility } from "./compatibility";
import { assignModelFacingName, modelFacingNameCandidates } from "./model-facing-name";
import { modelFacingDefinition, type PublishedTool } from "./validate-tool";

export interface PublishResult {
  added: number;
  removed: number;
  changed: number;
  toolCount: number;
}

export class SourceGone extends Error {
  override readonly name = "SourceGone";
}

type Existing = {
  id: string;
  nativeName: string;
  definitionHash: string;
  compatibility: string;
  modelFacingName: string | null;
  firstSeenAt: Date;
};

const TX_OPTIONS = { timeout: 120_000, maxWait: 30_000 } as const;

async function publishOnce(
  tx: Tx,
  sourceId: string,
  tools: PublishedTool[],
  meta: { checkId?: string | null; at: Date },
): Promise<PublishResult> {
  // Serializes publications of one Source (a check and a registration cannot interleave).
  const locked = await tx.$queryRaw<
    { id: string; name: string }[]
  >`SELECT id, name FROM source WHERE id = ${sourceId} FOR UPDATE`;
  const source = locked[0];
  if (!source) throw new SourceGone(sourceId);

  const existing: Existing[] = await tx.tool.findMany({
    where: { sourceId },
    select: {
      id: true,
      nativeName: true,
      definitionHash: true,
      compatibility: true,
      modelFacingName: true,
      firstSeenAt: true,
    },
  });
  const before = new Map(existing.map((t) => [t.nativeName, t]));
  const after = new Map(tools.map((t) => [t.nativeName, t]));

  const removed = existing.filter((t) => !after.has(t.nativeName));
  const added = tools.filter((t) => !before.has(t.nativeName));
  const changed = tools.filter((t) => {
    const old = before.get(t.nativeName);
    return old !== undefined && old.definitionHash !== t.definitionHash;
  });
  if (!removed.length && !added.length && !changed.length) {
    return { added: 0, removed: 0, changed: 0, toolCount: existing.length };
  }

  // Names this publication gives up may be reused by the Tools it brings.
  const freed = new Set<string>();
  for (const t of removed) if (t.modelFacingName) freed.add(t.modelFacingName);
  const evaluated = [...added, ...changed].map((tool) => ({
    tool,
    compat: evaluateCompatibility(tool.inputSchema),
    old: before.get(tool.nativeName),
  }));
  for (const e of evaluated)
    if (e.old?.modelFacingName && e.compat.state !== "compatible") freed.add(e.old.modelFacingName);

  const needNames = evaluated.filter((e) => e.compat.state === "compatible" && !e.old?.modelFacingName);
  const probe = [
    ...new Set(
      needNames.flatMap((e) =>
        modelFacingNameCandidates({ sourceId, sourceName: source.name, nativeName: e.tool.nativeName }),
      ),
    ),
  ];
  const takenInDb = new Set(
    probe.length
      ? (await tx.tool.findMany({ where: { modelFacingName: { in: probe } }, select: { modelFacingName: true } })).map(
          (t) => t.modelFacingName as string,
        )
      : [],
  );
  const kept = new Set(
    evaluated
      .filter((e) => e.compat.state === "compatible" && e.old?.modelFacingName)
      .map((e) => e.old?.modelFacingName as string),
  );
  const assignedNow = new Set<string>();
  const isTaken = (name: string) =>
    assignedNow.has(name) || kept.has(name) || (takenInDb.has(name) && !freed.has(name));

  const rows: Prisma.ToolCreateManyInput[] = [];
  const changes: Prisma.CatalogChangeCreateManyInput[] = [];
  const change = (
    kind: Prisma.CatalogChangeCreateManyInput["kind"],
    nativeName: string,
    modelFacingName: string | null,
    detail?: string,
  ) =>
    changes.push({
      sourceId,
      sourceName: source.name,
      checkId: meta.checkId ?? null,
      at: meta.at,
      kind,
      nativeName,
      modelFacingName,
      detail,
    });

  for (const { tool, compat, old } of evaluated) {
    let modelFacingName: string | null = null;
    if (compat.state === "compatible") {
      modelFacingName =
        old?.modelFacingName ??
        assignModelFacingName({ sourceId, sourceName: source.name, nativeName: tool.nativeName }, isTaken);
      assignedNow.add(modelFacingName);
    }
    rows.push({
      id: old?.id ?? randomUUID(),
      sourceId,
      nativeName: tool.nativeName,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as Prisma.InputJsonValue,
      outputSchema: (tool.outputSchema ?? undefined) as Prisma.InputJsonValue | undefined,
      annotations: (tool.annotations ?? undefined) as Prisma.InputJsonValue | undefined,
      definition: tool.definition as Prisma.InputJsonValue,
      definitionBytes: tool.definitionBytes,
      definitionHash: tool.definitionHash,
      compatibility: compat.state,
      compatibilityReason: compat.reason,
      modelFacingName,
      modelFacingBytes: modelFacingName ? utf8Bytes(modelFacingDefinition(tool, modelFacingName)) : 0,
      firstSeenAt: old?.firstSeenAt ?? meta.at,
      lastChangedAt: meta.at,
    });
    if (!old)
      change("added", tool.nativeName, modelFacingName, compat.state === "compatible" ? undefined : compat.state);
    else if (old.compatibility === "compatible" && compat.state !== "compatible")
      change("became_incompatible", tool.nativeName, old.modelFacingName, compat.state);
    else if (old.compatibility !== "compatible" && compat.state === "compatible")
      change("became_compatible", tool.nativeName, modelFacingName);
    else change("changed", tool.nativeName, modelFacingName);
  }
  for (const t of removed) change("removed", t.nativeName, t.modelFacingName);

  // Changed Tools are rewritten under their old ids: two statements instead of one per Tool.
  const replaced = [...removed.map((t) => t.id), ...changed.map((t) => before.get(t.nativeName)?.id as string)];
  if (replaced.length) await tx.tool.deleteMany({ where: { id: { in: replaced } } });
  if (rows.length) await tx.tool.createMany({ data: rows });
  if (changes.length) await tx.catalogChange.createMany({ data: changes });
  await refreshSourceTotals(tx, sourceId);
  return { added: added.length, removed: removed.length, changed: changed.length, toolCount: tools.length };
}

/** Recomputes a Source's counters from its Tools (what identity budgets sum). */
export async function refreshSourceTotals(tx: Tx, sourceId: string): Promise<void> {
  const [all, compatible] = await Promise.all([
    tx.tool.aggregate({ where: { sourceId }, _count: true, _sum: { definitionBytes: true } }),
    tx.tool.aggregate({
      where: { sourceId, compatibility: "compatible" },
      _count: true,
      _sum: { modelFacingBytes: true },
    }),
  ]);
  await tx.source.update({
    where: { id: sourceId },
    data: {
      toolCount: all._count,
      definitionBytes: all._sum.definitionBytes ?? 0,
      compatibleToolCount: compatible._count,
      modelFacingBytes: compatible._sum.modelFacingBytes ?? 0,
    },
  });
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

/**
 * Publishes in its own transaction, then runs `after` in the same transaction (the
 * caller's bookkeeping: check row, Source state, audit). Retries when another
 * publication took a model-facing name at the same moment.
 */
export async function publishCatalog(
  sourceId: string,
  tools: PublishedTool[],
  meta: { checkId?: string | null; at?: Date },
  after?: (tx: Tx, result: PublishResult) => Promise<void>,
): Promise<PublishResult> {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const result = await publishOnce(tx, sourceId, tools, { checkId: meta.checkId, at: meta.at ?? new Date() });
        await after?.(tx, result);
        return result;
      }, TX_OPTIONS);
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}
