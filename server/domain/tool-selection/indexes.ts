/**
 * Tool indexes built from the database and kept in memory until what they index changes:
 * one per Agent Identity (its holdings, for the confusable pairs; built from find_tools'
 * per-Source segments, held-index.ts) and one for the catalog (a Tool's nearest neighbours). Each is keyed by the same version the
 * console already polls (catalogVersionOf: moves with any publication, a Source joining or
 * leaving, an SDK host going silent or coming back), so a hit costs one small query and a
 * miss rebuilds. Every app instance keeps its own; nothing here needs to be shared.
 */
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { LIMITS } from "../../limits";
import { catalogVersionOf, VERSION_SELECT } from "../catalog/version";
import { ToolIndex } from "./tool-index";
import type { ToolText } from "./tool-text";

/** A catalog Tool as the index holds it: what the scorer reads plus what the console shows. */
export interface IndexedTool extends ToolText {
  id: string;
  nativeName: string;
  sourceId: string;
  sourceName: string;
  /** Where the whole definition is (find_tools returns the input schema of each match). */
  definitionHash: string;
}

export interface VersionedIndex {
  version: string;
  index: ToolIndex<IndexedTool>;
  /** Derived results kept with the index, dropped with it (the confusable pairs). */
  memo: Map<string, unknown>;
}

/** Definitions are read in batches of this many hashes (one statement each). */
const DEFINITION_BATCH = 2000;

/** Only the parts of an input schema the scorer reads: top-level property names, descriptions, enums. */
function slimSchema(definition: string): ToolText["inputSchema"] {
  const parsed = JSON.parse(definition) as { inputSchema?: { properties?: Record<string, unknown> } };
  const properties = parsed.inputSchema?.properties;
  if (!properties || typeof properties !== "object") return undefined;
  const slim: Record<string, { description?: unknown; enum?: unknown; items?: { enum?: unknown } }> = {};
  for (const [name, p] of Object.entries(properties)) {
    const prop = (p ?? {}) as { description?: unknown; enum?: unknown; items?: { enum?: unknown } };
    slim[name] = { description: prop.description, enum: prop.enum, items: prop.items && { enum: prop.items.enum } };
  }
  return { properties: slim };
}

export async function loadTools(where: Prisma.ToolWhereInput): Promise<IndexedTool[]> {
  const db = await getDb();
  const rows = await db.tool.findMany({
    where,
    // A stable order keeps ranks and tie-breaks the same on every instance.
    orderBy: [{ modelFacingName: "asc" }, { id: "asc" }],
    select: {
      id: true,
      nativeName: true,
      modelFacingName: true,
      title: true,
      description: true,
      definitionHash: true,
      sourceId: true,
    },
  });
  // Source names apart: a join per Tool row costs more than one small query.
  const sourceNames = new Map(
    (
      await db.source.findMany({
        where: { id: { in: [...new Set(rows.map((r) => r.sourceId))] } },
        select: { id: true, name: true },
      })
    ).map((s) => [s.id, s.name]),
  );
  const hashes = [...new Set(rows.map((r) => r.definitionHash))];
  const schemas = new Map<string, ToolText["inputSchema"]>();
  for (let i = 0; i < hashes.length; i += DEFINITION_BATCH) {
    const stored = await db.toolDefinition.findMany({
      where: { hash: { in: hashes.slice(i, i + DEFINITION_BATCH) } },
      select: { hash: true, definition: true },
    });
    for (const d of stored) schemas.set(d.hash, slimSchema(d.definition));
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.modelFacingName ?? r.nativeName,
    nativeName: r.nativeName,
    title: r.title,
    description: r.description,
    inputSchema: schemas.get(r.definitionHash),
    sourceId: r.sourceId,
    sourceName: sourceNames.get(r.sourceId) ?? "",
    definitionHash: r.definitionHash,
  }));
}

/**
 * Least recently used first. A build in flight is shared by everyone who asks for the same
 * version, so a page and find_tools arriving together build once.
 */
const cache = new Map<string, Promise<VersionedIndex>>();

/** What an index is built from: Tools, and their weighted terms when already analysed. */
export interface IndexInput {
  tools: IndexedTool[];
  bags?: Map<string, number>[];
}

export async function cached(key: string, version: string, build: () => Promise<IndexInput>): Promise<VersionedIndex> {
  const hit = cache.get(key);
  if (hit) {
    const entry = await hit.catch(() => null);
    if (entry && entry.version === version) {
      cache.delete(key);
      cache.set(key, hit);
      return entry;
    }
    if (cache.get(key) === hit) cache.delete(key);
  }
  const pending = build().then(({ tools, bags }) => ({ version, index: new ToolIndex(tools, bags), memo: new Map() }));
  cache.set(key, pending);
  pending.catch(() => {
    if (cache.get(key) === pending) cache.delete(key);
  });
  while (cache.size > LIMITS.TOOL_INDEX_CACHE_ENTRIES.value) cache.delete(cache.keys().next().value as string);
  return pending;
}

/** The version of what an identity holds, as identities.get reports it (holdingsVersion). */
export async function holdingsVersion(identityId: string): Promise<string> {
  const db = await getDb();
  const assignments = await db.sourceAssignment.findMany({
    where: { identityId },
    select: { source: { select: VERSION_SELECT } },
  });
  return catalogVersionOf(assignments.map((a) => a.source));
}

/** The index of every Tool a model can be offered (Compatible, of a Source not silent). */
export async function catalogToolIndex(): Promise<VersionedIndex> {
  const db = await getDb();
  const sources = await db.source.findMany({ select: VERSION_SELECT });
  return cached("catalog", catalogVersionOf(sources), async () => ({
    tools: await loadTools({ compatibility: "compatible", source: { hostSilentSince: null } }),
  }));
}

/** Forget every index (tests that compare a cold build with a warm one). */
export function dropToolIndexes(): void {
  cache.clear();
}
