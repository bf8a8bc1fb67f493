/**
 * The catalog Tools an Agent Identity is offered at /mcp: every Tool it holds, under its
 * model-facing name, with exactly the definition its budget counts (name, description,
 * input schema), plus the Source's title and annotations, which clients show but models
 * are not sent. Paged, since an identity may hold some 15,000 small Tools.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { heldToolsWhere } from "../identities/holdings";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { servedIdentity } from "./identity";

export interface OfferedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export async function listOfferedTools(
  actor: Actor,
  input: { cursor?: string } = {},
): Promise<{ tools: OfferedTool[]; nextCursor: string | null }> {
  const identity = await servedIdentity(actor);
  const offset = decodeOffsetCursor(input.cursor);
  const db = await getDb();
  const where = heldToolsWhere(identity.id);
  const [rows, total] = await Promise.all([
    db.tool.findMany({
      where,
      orderBy: [{ modelFacingName: "asc" }],
      skip: offset,
      take: LIMITS.MCP_TOOLS_PAGE.value,
      select: { modelFacingName: true, title: true, description: true, definitionHash: true },
    }),
    db.tool.count({ where }),
  ]);
  const stored = await db.toolDefinition.findMany({
    where: { hash: { in: [...new Set(rows.map((r) => r.definitionHash))] } },
    select: { hash: true, definition: true },
  });
  const definitions = new Map(stored.map((d) => [d.hash, JSON.parse(d.definition) as Record<string, unknown>]));
  const tools = rows.map((row): OfferedTool => {
    const definition = definitions.get(row.definitionHash);
    // Publication writes a definition before its Tool and the sweep spares referenced ones.
    if (!definition) throw new Error(`definition ${row.definitionHash} is missing`);
    const annotations = definition.annotations;
    return {
      name: row.modelFacingName as string,
      ...(row.title ? { title: row.title } : {}),
      description: row.description,
      inputSchema: definition.inputSchema as Record<string, unknown>,
      ...(annotations && typeof annotations === "object"
        ? { annotations: annotations as Record<string, unknown> }
        : {}),
    };
  });
  return { tools, nextCursor: nextOffsetCursor(offset, rows.length, total) };
}
