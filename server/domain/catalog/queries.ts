import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { notFound } from "../../errors";
import { isDestructive, loadCallPolicyDefaults } from "../call-policies/defaults";
import { effectivePolicy } from "../call-policies/policy";
import { identitiesHolding } from "../identities/holdings";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { type CompatibilityState, NOT_OFFERABLE } from "./compatibility";
import { type TListToolsInput, ZFacetsInput, ZListToolsInput, ZToolIdInput } from "./schemas";
import { catalogVersionOf, VERSION_SELECT } from "./version";

const LIST_SELECT = {
  id: true,
  sourceId: true,
  nativeName: true,
  title: true,
  description: true,
  modelFacingName: true,
  compatibility: true,
  compatibilityReason: true,
  definitionBytes: true,
  modelFacingBytes: true,
  firstSeenAt: true,
  lastChangedAt: true,
  source: { select: { name: true, kind: true, hostSilentSince: true } },
} as const satisfies Prisma.ToolSelect;

type ToolRow = Prisma.ToolGetPayload<{ select: typeof LIST_SELECT }>;

function toolView(t: ToolRow) {
  return {
    id: t.id,
    sourceId: t.sourceId,
    sourceName: t.source.name,
    sourceKind: t.source.kind,
    /** Offered to no one while its SDK host is silent. */
    withdrawn: Boolean(t.source.hostSilentSince),
    nativeName: t.nativeName,
    title: t.title,
    description: t.description,
    modelFacingName: t.modelFacingName,
    compatibility: { state: t.compatibility as CompatibilityState, reason: t.compatibilityReason },
    definitionBytes: t.definitionBytes,
    modelFacingBytes: t.modelFacingBytes,
    firstSeenAt: t.firstSeenAt,
    lastChangedAt: t.lastChangedAt,
  };
}
export type CatalogTool = ReturnType<typeof toolView>;

const NOT_OFFERABLE_WHERE = {
  OR: [{ compatibility: { not: "compatible" } }, { source: { hostSilentSince: { not: null } } }],
} as const satisfies Prisma.ToolWhereInput;

function whereFor(input: {
  sourceId?: string;
  state?: CompatibilityState | typeof NOT_OFFERABLE;
  search?: string;
}): Prisma.ToolWhereInput {
  const search = input.search?.trim();
  const state = input.state === NOT_OFFERABLE ? undefined : input.state;
  return {
    sourceId: input.sourceId,
    compatibility: state,
    AND: input.state === NOT_OFFERABLE ? [NOT_OFFERABLE_WHERE] : undefined,
    OR: search
      ? [
          { nativeName: { contains: search, mode: "insensitive" } },
          { modelFacingName: { contains: search, mode: "insensitive" } },
          { title: { contains: search, mode: "insensitive" } },
          { description: { contains: search, mode: "insensitive" } },
        ]
      : undefined,
  };
}

/** Every Tool across Sources, filtered, searched, sorted; offset cursors keep any sort stable. */
export async function listTools(actor: Actor, raw?: TListToolsInput) {
  requireRole(actor, "viewer");
  const input = parseInput(ZListToolsInput, raw ?? {});
  const db = await getDb();
  const where = whereFor(input);
  const dir = input.direction;
  const orderBy: Prisma.ToolOrderByWithRelationInput[] = {
    name: [{ nativeName: dir }],
    source: [{ source: { name: dir } }, { nativeName: "asc" }],
    // The enum's order is Compatible first, then each state that refuses a model: descending
    // puts the worst first, and a withdrawn Compatible Tool before one that is offered.
    compatibility: [
      { compatibility: dir },
      {
        source: {
          hostSilentSince: { sort: dir === "desc" ? "desc" : "asc", nulls: dir === "desc" ? "last" : "first" },
        },
      },
      { nativeName: "asc" },
    ],
    size: [{ definitionBytes: dir }, { nativeName: "asc" }],
    lastChanged: [{ lastChangedAt: dir }, { nativeName: "asc" }],
  }[input.sort] as Prisma.ToolOrderByWithRelationInput[];
  const offset = decodeOffsetCursor(input.cursor);
  const [rows, total] = await Promise.all([
    db.tool.findMany({
      where,
      orderBy: [...orderBy, { id: "asc" }],
      skip: offset,
      take: input.limit,
      select: LIST_SELECT,
    }),
    db.tool.count({ where }),
  ]);
  return { items: rows.map(toolView), total, nextCursor: nextOffsetCursor(offset, rows.length, total) };
}

/**
 * Counts for the catalog's filters: per Source, and per compatibility state within the
 * chosen Source (all Sources when none), so the state menu counts what it would show;
 * and the catalog's version, which moves whenever any listed Tool could read differently.
 */
export async function catalogFacets(actor: Actor, raw?: { sourceId?: string }) {
  requireRole(actor, "viewer");
  const { sourceId } = parseInput(ZFacetsInput, raw ?? {});
  const db = await getDb();
  const [byState, notOfferable, sources] = await Promise.all([
    db.tool.groupBy({ by: ["compatibility"], where: { sourceId }, _count: true }),
    db.tool.count({ where: { sourceId, ...NOT_OFFERABLE_WHERE } }),
    db.source.findMany({
      select: { ...VERSION_SELECT, kind: true, toolCount: true },
      orderBy: { name: "asc" },
    }),
  ]);
  return {
    states: Object.fromEntries(byState.map((s) => [s.compatibility, s._count])) as Partial<
      Record<CompatibilityState, number>
    >,
    /** Tools no model is offered: not Compatible, or withdrawn while their host is silent. */
    notOfferable,
    sources: sources.map((s) => ({ id: s.id, name: s.name, kind: s.kind, toolCount: s.toolCount })),
    total: sources.reduce((n, s) => n + s.toolCount, 0),
    version: catalogVersionOf(sources),
  };
}

export async function getTool(actor: Actor, raw: { id: string }) {
  requireRole(actor, "viewer");
  const { id } = parseInput(ZToolIdInput, raw);
  const db = await getDb();
  const tool = await db.tool.findUnique({
    where: { id },
    select: {
      ...LIST_SELECT,
      definitionHash: true,
      callPolicy: true,
      source: { select: { ...LIST_SELECT.source.select, callPolicy: true } },
    },
  });
  if (!tool) throw notFound("Tool");
  const view = toolView(tool);
  const stored = await db.toolDefinition.findUnique({
    where: { hash: tool.definitionHash },
    select: { definition: true },
  });
  // Publication writes a Tool's definition before the Tool, and the sweep spares referenced ones.
  if (!stored) throw new Error(`tool ${id}: definition ${tool.definitionHash} is missing`);
  const definition = JSON.parse(stored.definition) as Record<string, unknown>;
  return {
    ...view,
    heldBy: await identitiesHolding({
      sourceId: view.sourceId,
      compatibility: view.compatibility.state,
      withdrawn: view.withdrawn,
      modelFacingName: view.modelFacingName,
    }),
    definition,
    inputSchema: definition.inputSchema ?? null,
    outputSchema: definition.outputSchema ?? null,
    annotations: definition.annotations ?? null,
    /** Passed on to agents' clients at /mcp beside the model-facing definition. */
    clientFields: {
      icons: definition.icons ?? null,
      _meta: definition._meta ?? null,
      execution: definition.execution ?? null,
    },
    definitionHash: tool.definitionHash,
    /** Who must agree before a call runs: the Tool's own setting (null: its Source's) and the effect. */
    callPolicy: {
      own: tool.callPolicy,
      ...effectivePolicy(tool, tool.source, {
        ...(await loadCallPolicyDefaults()),
        destructive: isDestructive(definition),
      }),
    },
  };
}
