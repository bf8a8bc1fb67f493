/**
 * What a Source offers besides Tools, as its last successful catalog check recorded it
 * (surface-lister.ts): kept with the catalog, replaced in the same transaction, and read
 * back for the console with the URI or name an agent reaches each item by at /mcp. /mcp
 * itself proxies the Source live (agent-tools/source-surface.ts), never from this record.
 */
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { notFound } from "../../errors";
import { promptPrefixes } from "../agent-tools/prompt-prefix";
import { proxiedPromptName, proxiedUri } from "../agent-tools/surface-names";
import { operation } from "../operation";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { ZSourceIdInput } from "../sources/schemas";
import { SURFACE_KINDS, ZSourceSurfaceItemsInput } from "./schemas";
import type { SurfaceKind, SurfaceList } from "./surface-lister";

/** Replaces the Source's recorded lists with a check's, inside the check's publication. */
export async function recordSurface(tx: Tx, sourceId: string, checkId: string, at: Date, lists: SurfaceList[]) {
  if (!lists.length) return;
  await tx.sourceSurfaceItem.deleteMany({ where: { sourceId } });
  const rows = lists.flatMap((list) =>
    list.items.map((item, position) => ({
      sourceId,
      kind: list.kind,
      position,
      name: item.name,
      title: item.title,
      uri: item.uri,
      description: item.description,
      mimeType: item.mimeType,
      arguments: item.arguments ?? undefined,
      definition: item.definition,
    })),
  );
  if (rows.length) await tx.sourceSurfaceItem.createMany({ data: rows });
  for (const list of lists) {
    const data = {
      status: list.status,
      checkId,
      listedAt: at,
      pages: list.pages,
      items: list.items.length,
      bytes: list.bytes,
      failureCode: list.failure?.code ?? null,
      failureMessage: list.failure?.message ?? null,
    };
    await tx.sourceSurfaceList.upsert({
      where: { sourceId_kind: { sourceId, kind: list.kind } },
      create: { sourceId, kind: list.kind, ...data },
      update: data,
    });
  }
}

/**
 * The prompt prefix of a Source the check found prompts on, fixed now (not at an agent's
 * first prompts/list) so the console can show the names agents will use.
 */
export async function fixPromptPrefix(source: { id: string; name: string; promptPrefix: string | null }) {
  if (!source.promptPrefix) await promptPrefixes([source]);
}

const LIST_KEYS: Record<SurfaceKind, "resources" | "templates" | "prompts"> = {
  resource: "resources",
  template: "templates",
  prompt: "prompts",
};

/** How each of the three lists went at the last successful check (`not_checked` before one listed them). */
export const getSourceSurface = operation({ role: "viewer", input: ZSourceIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  const source = await db.source.findUnique({
    where: { id },
    select: { id: true, kind: true, surfaceLists: true },
  });
  if (!source) throw notFound("Source");
  const lists = Object.fromEntries(
    SURFACE_KINDS.map((kind) => {
      const row = source.surfaceLists.find((l) => l.kind === kind);
      return [
        LIST_KEYS[kind],
        row
          ? {
              status: row.status,
              listedAt: row.listedAt,
              checkId: row.checkId,
              pages: row.pages,
              count: row.items,
              bytes: row.bytes,
              failure: row.failureCode ? { code: row.failureCode, message: row.failureMessage ?? "" } : null,
            }
          : {
              status: "not_checked" as const,
              listedAt: null,
              checkId: null,
              pages: 0,
              count: 0,
              bytes: 0,
              failure: null,
            },
      ];
    }),
  ) as Record<
    "resources" | "templates" | "prompts",
    {
      status: SurfaceList["status"] | "not_checked";
      listedAt: Date | null;
      checkId: string | null;
      pages: number;
      count: number;
      bytes: number;
      failure: { code: string; message: string } | null;
    }
  >;
  return { sourceId: source.id, kind: source.kind, ...lists };
});

/** One page of a recorded list, each item with the URI (or prompt name) an agent uses at /mcp. */
export const listSourceSurfaceItems = operation(
  { role: "viewer", input: ZSourceSurfaceItemsInput },
  async (_actor, input) => {
    const db = await getDb();
    const source = await db.source.findUnique({
      where: { id: input.id },
      select: { id: true, promptPrefix: true },
    });
    if (!source) throw notFound("Source");
    const offset = decodeOffsetCursor(input.cursor);
    const where = { sourceId: source.id, kind: input.kind };
    const [total, rows] = await Promise.all([
      db.sourceSurfaceItem.count({ where }),
      db.sourceSurfaceItem.findMany({
        where,
        orderBy: { position: "asc" },
        skip: offset,
        take: input.limit,
        select: {
          id: true,
          name: true,
          title: true,
          uri: true,
          description: true,
          mimeType: true,
          arguments: true,
        },
      }),
    ]);
    const items = rows.map((row) => ({
      ...row,
      arguments: (row.arguments ?? null) as { name: string; description?: string; required?: boolean }[] | null,
      /** What an agent reads or gets it by at /mcp. */
      proxied:
        input.kind === "prompt"
          ? source.promptPrefix
            ? proxiedPromptName(source, row.name)
            : null
          : proxiedUri(source.id, row.uri ?? ""),
    }));
    return { items, total, nextCursor: nextOffsetCursor(offset, items.length, total) };
  },
);
