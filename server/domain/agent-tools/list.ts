/**
 * The catalog Tools an Agent Identity is offered at /mcp: every Tool it holds, under its
 * model-facing name, with exactly the definition its budget counts (name, description,
 * input schema), plus the published fields clients act on but models are not sent:
 * title, annotations, outputSchema (clients validate structuredContent against it), icons,
 * _meta (MCP Apps name their ui:// resources there) and execution (task support).
 * Paged, since an identity may hold some 15,000 small Tools; under a selection
 * (exposure.ts) only the selected ones, in the selection's order.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { heldToolsWhere } from "../identities/holdings";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { planListing } from "./exposure";
import { servedIdentity } from "./identity";
import { routed } from "./route-cache";

export interface OfferedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
  execution?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The published fields an agent's client reads beside the model-facing definition, as published. */
function clientFields(definition: Record<string, unknown>): Partial<OfferedTool> {
  const { annotations, outputSchema, icons, _meta, execution } = definition;
  return {
    ...(isRecord(annotations) ? { annotations } : {}),
    ...(isRecord(outputSchema) ? { outputSchema } : {}),
    ...(Array.isArray(icons) ? { icons } : {}),
    ...(isRecord(_meta) ? { _meta } : {}),
    ...(isRecord(execution) ? { execution } : {}),
  };
}

export async function listOfferedTools(
  actor: Actor,
  input: { cursor?: string } = {},
): Promise<{ tools: OfferedTool[]; nextCursor: string | null }> {
  const identity = await servedIdentity(actor);
  const offset = decodeOffsetCursor(input.cursor);
  const db = await getDb();
  const where = heldToolsWhere(identity.id);
  const plan = await planListing(identity.id);
  const page = LIMITS.MCP_TOOLS_PAGE.value;
  let rows: { modelFacingName: string | null; title: string | null; description: string; definitionHash: string }[];
  let total: number;
  const select = { modelFacingName: true, title: true, description: true, definitionHash: true } as const;
  if (plan.mode === "selection") {
    // The selection's own order (pins, then most used), not the names' alphabetical one.
    const names = (plan.names ?? []).slice(offset, offset + page);
    const found = await db.tool.findMany({ where: { AND: [where, { modelFacingName: { in: names } }] }, select });
    const byName = new Map(found.map((r) => [r.modelFacingName, r]));
    rows = names.flatMap((n) => byName.get(n) ?? []);
    total = plan.names?.length ?? 0;
  } else {
    [rows, total] = await Promise.all([
      db.tool.findMany({ where, orderBy: [{ modelFacingName: "asc" }], skip: offset, take: page, select }),
      db.tool.count({ where }),
    ]);
  }
  const texts = await definitionTexts(rows.map((r) => r.definitionHash));
  // Parsed per listing: each answer gets objects of its own.
  const definitions = new Map<string, Record<string, unknown>>();
  for (const [hash, text] of texts) definitions.set(hash, JSON.parse(text) as Record<string, unknown>);
  const tools = rows.map((row): OfferedTool => {
    const definition = definitions.get(row.definitionHash);
    // Publication writes a definition before its Tool and the sweep spares referenced ones.
    if (!definition) throw new Error(`definition ${row.definitionHash} is missing`);
    return {
      name: row.modelFacingName as string,
      ...(row.title ? { title: row.title } : {}),
      description: row.description,
      inputSchema: definition.inputSchema as Record<string, unknown>,
      ...clientFields(definition),
    };
  });
  return { tools, nextCursor: nextOffsetCursor(offset, rows.length, total) };
}

/**
 * Definitions never change under their hash, so their text is kept once read: reading 500 of
 * them cost most of a listing's time. Bounded by characters; past it, the oldest go.
 */
const definitionCache = new Map<string, string>();
let cachedChars = 0;
const MOST_CACHED_CHARS = 32 * 1024 * 1024;

async function definitionTexts(hashes: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const missing = new Set<string>();
  for (const hash of hashes) {
    const text = definitionCache.get(hash);
    if (text === undefined) missing.add(hash);
    else found.set(hash, text);
  }
  if (!missing.size) return found;
  const db = await getDb();
  const stored = await db.toolDefinition.findMany({
    where: { hash: { in: [...missing] } },
    select: { hash: true, definition: true },
  });
  for (const { hash, definition } of stored) {
    found.set(hash, definition);
    if (definitionCache.has(hash)) continue;
    definitionCache.set(hash, definition);
    cachedChars += definition.length;
    for (const [oldest, text] of definitionCache) {
      if (cachedChars <= MOST_CACHED_CHARS) break;
      definitionCache.delete(oldest);
      cachedChars -= text.length;
    }
  }
  return found;
}

/**
 * Whether the catalog Tool offered under `name` publishes an outputSchema. Clients on the
 * 1.x TypeScript SDK check structuredContent against it even on an isError result, and it is
 * listed as its Source published it (which rarely admits `{ error }`): a failure of such a
 * Tool reaches them in text only (docs/decisions/0097).
 */
export async function publishesOutputSchema(actor: Actor, name: string): Promise<boolean> {
  const identity = await routed(`identity\0${actor.kind === "agent" ? actor.identityId : ""}`, () =>
    servedIdentity(actor),
  );
  return routed(`output-schema\0${identity.id}\0${name}`, async () => {
    const db = await getDb();
    const tool = await db.tool.findFirst({
      where: { ...heldToolsWhere(identity.id), modelFacingName: name },
      select: { definitionHash: true },
    });
    if (!tool) return false;
    const stored = (await definitionTexts([tool.definitionHash])).get(tool.definitionHash);
    return !!stored && isRecord((JSON.parse(stored) as Record<string, unknown>).outputSchema);
  });
}
