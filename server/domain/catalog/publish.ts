/**
 * Replaces a Source's catalog with a validated publication, atomically: one
 * transaction diffs it against the active catalog, assigns model-facing names, writes
 * the Tools, records what changed, and refreshes the Source's totals. Used by MCP
 * catalog checks and SDK Tool Host registrations alike.
 */

import { randomUUID } from "node:crypto";
import { getDb } from "../../db";
import { type BulkColumn, bulkInsert, bulkUpdate, deleteByIds, recordset } from "../../db/bulk";
import type { Tx } from "../../db/types";
import { notFound } from "../../errors";
import { announce } from "../../events";
import { sha256 } from "./canonical";
import { type Compatibility, evaluateCompatibility } from "./compatibility";
import { writeDefinitions } from "./definitions";
import { NameAllocator } from "./name-allocator";
import { REVIEW_COLUMNS, type ReviewContext, recordBaseline, reviewContext, reviewVerdict } from "./review-publish";
import { modelFacingBytes, type PublishedTool } from "./validate-tool";

export interface PublishMeta {
  checkId?: string | null;
  at: Date;
  /** Definitions a check already wrote while it listed (DefinitionStager). */
  staged?: ReadonlySet<string>;
  /** The catalog as a check read it before listing; used if no publication came in between. */
  snapshot?: CatalogSnapshot | null;
}

export type ExistingTool = {
  id: string;
  nativeName: string;
  definitionHash: string;
  compatibility: string;
  modelFacingName: string | null;
  firstSeenAt: Date;
  approvedDigest: string | null;
  approvedHash: string | null;
  rejectedDigest: string | null;
};

/** A Source's active catalog, and the catalog version it was read at. */
export interface CatalogSnapshot {
  version: number;
  tools: ExistingTool[];
}

/**
 * Reads a Source's catalog as publication needs it; null if the Source is gone. A check
 * reads it while the server answers its first requests, and its publication reuses it.
 */
export async function readCatalog(tx: Tx, sourceId: string): Promise<CatalogSnapshot | null> {
  // One statement, so the version and the Tools come from the same snapshot; one JSON value
  // rather than 4,096 rows: row by row, the driver's result handling cost three times the
  // query on the embedded database.
  const rows = await tx.$queryRaw<{ version: number; tools: string | null }[]>`
    SELECT s."catalogVersion" AS version,
           (SELECT json_agg(json_build_array(t.id, t."nativeName", t."definitionHash", t.compatibility,
                                             t."modelFacingName", t."firstSeenAt", t."approvedDigest",
                                             t."approvedHash", t."rejectedDigest"))::text
            FROM tool t WHERE t."sourceId" = s.id) AS tools
    FROM source s WHERE s.id = ${sourceId}`;
  const first = rows[0];
  if (!first) return null;
  const tools = first.tools ? (JSON.parse(first.tools) as ToolTuple[]) : [];
  return {
    version: first.version,
    tools: tools.map(
      ([
        id,
        nativeName,
        definitionHash,
        compatibility,
        modelFacingName,
        firstSeenAt,
        approved,
        approvedHash,
        rejected,
      ]) => ({
        id,
        nativeName,
        definitionHash,
        compatibility,
        modelFacingName,
        // timestamp(3) columns hold UTC without a zone (as Prisma writes them).
        firstSeenAt: new Date(`${firstSeenAt}Z`),
        approvedDigest: approved,
        approvedHash,
        rejectedDigest: rejected,
      }),
    ),
  };
}

type ToolTuple = [string, string, string, string, string | null, string, string | null, string | null, string | null];

export interface PublishResult {
  added: number;
  removed: number;
  changed: number;
  toolCount: number;
}

const TX_OPTIONS = { timeout: 120_000, maxWait: 30_000 } as const;

const TOOL_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "sourceId", type: "text" },
  { name: "nativeName", type: "text" },
  { name: "title", type: "text" },
  { name: "description", type: "text" },
  { name: "definitionBytes", type: "integer" },
  { name: "definitionHash", type: "text" },
  { name: "compatibility", type: "text", cast: "ToolCompatibility" },
  { name: "compatibilityReason", type: "text" },
  { name: "modelFacingName", type: "text" },
  { name: "modelFacingBytes", type: "integer" },
  { name: "firstSeenAt", type: "timestamp(3)" },
  { name: "lastChangedAt", type: "timestamp(3)" },
  ...REVIEW_COLUMNS,
];

export const CHANGE_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "sourceId", type: "text" },
  { name: "sourceName", type: "text" },
  { name: "checkId", type: "text" },
  { name: "at", type: "timestamp(3)" },
  { name: "kind", type: "text", cast: "CatalogChangeKind" },
  { name: "nativeName", type: "text" },
  { name: "modelFacingName", type: "text" },
  { name: "detail", type: "text" },
];

async function publishOnce(
  tx: Tx,
  sourceId: string,
  tools: PublishedTool[],
  meta: PublishMeta,
): Promise<PublishResult> {
  // Serializes publications of one Source (a check and a registration cannot interleave).
  const locked = await tx.$queryRaw<
    {
      id: string;
      name: string;
      catalogFingerprint: string | null;
      catalogVersion: number;
      reviewPolicy: "review" | "trust";
      reviewBaselineAt: Date | null;
      createdByType: string | null;
      createdById: string | null;
      createdByLabel: string | null;
    }[]
  >`SELECT id, name, "catalogFingerprint", "catalogVersion", "reviewPolicy"::text AS "reviewPolicy", "reviewBaselineAt",
           "createdByType", "createdById", "createdByLabel"
    FROM source WHERE id = ${sourceId} FOR UPDATE`;
  const source = locked[0];
  // Deleted while it was checked: the check sees it gone and records nothing.
  if (!source) throw notFound("The Source");
  const fingerprint = catalogFingerprint(tools);
  // A Source's first successful catalog is approved as its creator's, even an empty one.
  const baseline = source.reviewBaselineAt === null;
  if (baseline) await recordBaseline(tx, source, tools, meta.at);
  // Most checks find what the last one found: then there is nothing to read or diff.
  if (fingerprint === source.catalogFingerprint) return { added: 0, removed: 0, changed: 0, toolCount: tools.length };

  // The check's read is still the catalog unless a publication came in between.
  const existing =
    meta.snapshot?.version === source.catalogVersion
      ? meta.snapshot.tools
      : ((await readCatalog(tx, sourceId))?.tools ?? []);
  const before = new Map(existing.map((t) => [t.nativeName, t]));
  const after = new Map(tools.map((t) => [t.nativeName, t]));

  const removed = existing.filter((t) => !after.has(t.nativeName));
  const added = tools.filter((t) => !before.has(t.nativeName));
  const changed = tools.filter((t) => {
    const old = before.get(t.nativeName);
    // Rows judged Task required before /mcp ran tasks are judged again (decision 0025).
    return old !== undefined && (old.definitionHash !== t.definitionHash || old.compatibility === "task_required");
  });
  if (!removed.length && !added.length && !changed.length) {
    await tx.$executeRaw`UPDATE source SET "catalogFingerprint" = ${fingerprint} WHERE id = ${sourceId}`;
    return { added: 0, removed: 0, changed: 0, toolCount: existing.length };
  }

  // Names this publication gives up may be reused by the Tools it brings.
  const freed = new Set<string>();
  for (const t of removed) if (t.modelFacingName) freed.add(t.modelFacingName);
  const review: ReviewContext = await reviewContext(tx, source, baseline, [...added, ...changed], before, meta.at);
  const evaluated = [...added, ...changed].map((tool) => {
    const judged = evaluateCompatibility(tool.inputSchema);
    const old = before.get(tool.nativeName);
    const verdict = reviewVerdict(review, tool, old, judged);
    // `judged` decides the name (a Tool awaiting review keeps the one it will be offered
    // under); `compat` is the state stored and offered by.
    return { tool, judged, compat: verdict.compat, reviewRow: verdict.row, old };
  });
  for (const e of evaluated)
    if (e.old?.modelFacingName && e.judged.state !== "compatible") freed.add(e.old.modelFacingName);

  const kept = new Set(
    evaluated
      .filter((e) => e.judged.state === "compatible" && e.old?.modelFacingName)
      .map((e) => e.old?.modelFacingName as string),
  );
  const needNames = evaluated.filter((e) => e.judged.state === "compatible" && !e.old?.modelFacingName);
  const names = await new NameAllocator(tx, source, { kept, freed }).assign(needNames.map((e) => e.tool));
  const newNames = new Map(needNames.map((e, i) => [e.tool.nativeName, names[i] as string]));

  const at = meta.at.toISOString();
  const rows: Record<string, unknown>[] = [];
  // New Tools, inserted with their "added" records in one statement.
  const newRows: Record<string, unknown>[] = [];
  // Changed Tools that keep their model-facing name are updated in place: no delete, and no
  // key to check again. A Tool whose name changes is rewritten, after the deletes free names.
  const inPlace: Record<string, unknown>[] = [];
  const changes: Record<string, unknown>[] = [];
  const change = (kind: string, nativeName: string, modelFacingName: string | null, detail: string | null = null) =>
    changes.push({
      id: randomUUID(),
      sourceId,
      sourceName: source.name,
      checkId: meta.checkId ?? null,
      at,
      kind,
      nativeName,
      modelFacingName,
      detail,
    });

  for (const { tool, judged, compat, reviewRow, old } of evaluated) {
    const modelFacingName =
      judged.state === "compatible" ? (old?.modelFacingName ?? newNames.get(tool.nativeName) ?? null) : null;
    const row = { ...toolRow(tool, compat, modelFacingName, old?.id), ...reviewRow };
    if (!old) {
      newRows.push(row); // written with its "added" record (insertAdded)
      continue;
    }
    (old.modelFacingName === modelFacingName ? inPlace : rows).push({
      ...row,
      sourceId,
      firstSeenAt: old.firstSeenAt.toISOString(),
      lastChangedAt: at,
    });
    if (old.compatibility === "compatible" && compat.state !== "compatible")
      change("became_incompatible", tool.nativeName, old.modelFacingName, compat.state);
    else if (old.compatibility !== "compatible" && compat.state === "compatible")
      change("became_compatible", tool.nativeName, modelFacingName);
    // A Tool no model is offered changes for no identity (its name is only reserved).
    else if (compat.state === "compatible") change("changed", tool.nativeName, modelFacingName);
    else change("changed", tool.nativeName, null, compat.state);
  }
  for (const t of removed) change("removed", t.nativeName, t.modelFacingName);

  // A Tool row may only name a stored definition. A check staged its new ones already; the
  // rest (a registration's, or one a concurrent publication let go since the check began) are written here.
  const stored = new Set(existing.map((t) => t.definitionHash));
  const unwritten = new Map<string, PublishedTool>();
  for (const { tool } of evaluated)
    if (!stored.has(tool.definitionHash) && !meta.staged?.has(tool.definitionHash))
      unwritten.set(tool.definitionHash, tool);
  if (unwritten.size) await writeDefinitions(tx, [...unwritten.values()]);

  const rewritten = new Set(rows.map((r) => r.id));
  await deleteByIds(tx, "tool", [
    ...removed.map((t) => t.id),
    ...changed.map((t) => before.get(t.nativeName)?.id as string).filter((id) => rewritten.has(id)),
  ]);
  await bulkUpdate(tx, "tool", TOOL_COLUMNS, inPlace);
  await bulkInsert(tx, "tool", TOOL_COLUMNS, rows);
  await insertAdded(tx, newRows, { sourceId, sourceName: source.name, checkId: meta.checkId ?? null, at });
  await bulkInsert(tx, "catalog_change", CHANGE_COLUMNS, changes);
  await refreshSourceTotals(tx, sourceId);
  await tx.$executeRaw`
    UPDATE source SET "catalogFingerprint" = ${fingerprint}, "catalogVersion" = "catalogVersion" + 1
    WHERE id = ${sourceId}`;
  return { added: added.length, removed: removed.length, changed: changed.length, toolCount: tools.length };
}

/** A Tool's row as publication writes it, but for its Source and times. */
function toolRow(
  tool: PublishedTool,
  compat: Compatibility,
  modelFacingName: string | null,
  id: string = randomUUID(),
): Record<string, unknown> {
  return {
    id,
    nativeName: tool.nativeName,
    title: tool.title,
    description: tool.description,
    definitionBytes: tool.definitionBytes,
    definitionHash: tool.definitionHash,
    compatibility: compat.state,
    compatibilityReason: compat.reason,
    modelFacingName,
    modelFacingBytes: modelFacingName ? modelFacingBytes(tool, modelFacingName) : 0,
  };
}

// A new Tool's Source and first-seen time are the publication's: sent once, not per row.
const SHARED = new Set(["sourceId", "firstSeenAt", "lastChangedAt"]);
const FRESH_RECORDSET = recordset(TOOL_COLUMNS.filter((c) => !SHARED.has(c.name)));

/**
 * Inserts new Tools and records each as added, in one statement: the rows are sent and
 * parsed once, and a first import of 4,096 Tools does not also ship 4,096 change records.
 */
async function insertAdded(
  tx: Tx,
  rows: Record<string, unknown>[],
  meta: { sourceId: string; sourceName: string; checkId: string | null; at: string },
): Promise<void> {
  if (!rows.length) return;
  const { names, values, fields } = FRESH_RECORDSET;
  await tx.$executeRawUnsafe(
    `WITH x AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS x(${fields})),
     inserted AS (
       INSERT INTO tool (${names}, "sourceId", "firstSeenAt", "lastChangedAt")
       SELECT ${values}, $2, $5::timestamp(3), $5::timestamp(3) FROM x)
     INSERT INTO catalog_change (id, "sourceId", "sourceName", "checkId", at, kind, "nativeName", "modelFacingName", detail)
     SELECT gen_random_uuid()::text, $2, $3, $4, $5::timestamp(3), 'added',
            x."nativeName", CASE WHEN x.compatibility = 'compatible' THEN x."modelFacingName" END,
            CASE WHEN x.compatibility = 'compatible' THEN NULL ELSE x.compatibility END
     FROM x`,
    JSON.stringify(rows),
    meta.sourceId,
    meta.sourceName,
    meta.checkId,
    meta.at,
  );
}

/** Identifies a catalog by its Tools' names and definitions, in any order. */
export function catalogFingerprint(tools: { nativeName: string; definitionHash: string }[]): string {
  return sha256(
    tools
      .map((t) => `${t.definitionHash}:${t.nativeName}`)
      .sort()
      .join("\n"),
  );
}

/** Recomputes a Source's counters from its Tools (what identity budgets sum). */
export async function refreshSourceTotals(tx: Tx, sourceId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE source SET
      "toolCount" = t.n, "definitionBytes" = t.bytes, "compatibleToolCount" = t.compatible, "modelFacingBytes" = t.mf
    FROM (
      SELECT count(*)::int AS n,
             COALESCE(sum("definitionBytes"), 0)::int AS bytes,
             (count(*) FILTER (WHERE compatibility = 'compatible'))::int AS compatible,
             COALESCE(sum("modelFacingBytes") FILTER (WHERE compatibility = 'compatible'), 0)::int AS mf
      FROM tool WHERE "sourceId" = ${sourceId}
    ) t
    WHERE source.id = ${sourceId}`;
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string } | null)?.code ?? ""} ${(error as Error | null)?.message ?? ""}`;
  return /P2002|23505|unique constraint/i.test(text);
}

/**
 * Publishes in its own transaction, then runs `after` in the same transaction (the
 * caller's bookkeeping: check row, Source state, audit). Retries when another
 * publication took a model-facing name at the same moment.
 */
export async function publishCatalog(
  sourceId: string,
  tools: PublishedTool[],
  meta: Omit<PublishMeta, "at"> & { at?: Date },
  after?: (tx: Tx, result: PublishResult) => Promise<void>,
): Promise<PublishResult> {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      const published = await db.$transaction(async (tx) => {
        const result = await publishOnce(tx, sourceId, tools, { ...meta, at: meta.at ?? new Date() });
        await after?.(tx, result);
        return result;
      }, TX_OPTIONS);
      announce("catalog");
      return published;
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}
