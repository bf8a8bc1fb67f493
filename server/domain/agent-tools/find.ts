/**
 * find_tools: searches the Tools an Agent Identity holds by name and description, so an
 * agent holding thousands can reach the one it needs without listing them all. Name
 * matches rank before description matches.
 */
import { z } from "zod";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { heldToolsWhere } from "../identities/holdings";
import { parseInput } from "../validation";
import { servedIdentity } from "./identity";

export const ZFindToolsInput = z.object({
  query: z.string().trim().min(1, "say what the Tool should do or what it is called").max(200),
  limit: z.number().int().min(1).max(50).default(10),
});

export interface FoundTool {
  name: string;
  description: string;
  source: string;
}

export async function findOfferedTools(
  actor: Actor,
  raw: unknown,
): Promise<{ query: string; tools: FoundTool[]; total: number }> {
  const identity = await servedIdentity(actor);
  const { query, limit } = parseInput(ZFindToolsInput, raw);
  const db = await getDb();
  const words = query.split(/\s+/).slice(0, 8);
  // Every word must appear in the name or the description.
  const where = {
    ...heldToolsWhere(identity.id),
    AND: words.map((word) => ({
      OR: [
        { modelFacingName: { contains: word, mode: "insensitive" as const } },
        { description: { contains: word, mode: "insensitive" as const } },
      ],
    })),
  };
  const [rows, total] = await Promise.all([
    db.tool.findMany({
      where,
      orderBy: [{ modelFacingName: "asc" }],
      take: 500,
      select: { modelFacingName: true, description: true, source: { select: { name: true } } },
    }),
    db.tool.count({ where }),
  ]);
  const lower = words.map((w) => w.toLowerCase());
  const rank = (name: string) => {
    const n = name.toLowerCase();
    if (n === query.toLowerCase()) return 0;
    return lower.filter((w) => !n.includes(w)).length + 1;
  };
  const tools = rows
    .map((r) => ({ name: r.modelFacingName as string, description: r.description, source: r.source.name }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))
    .slice(0, limit);
  return { query, tools, total };
}
