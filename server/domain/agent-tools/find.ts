/**
 * find_tools: searches the Tools an Agent Identity holds by name, description and
 * parameters, so an agent holding thousands can reach the one it needs without listing
 * them all. Ranked by the same tool-selection index the console's confusable pairs use
 * (server/domain/tool-selection), kept in memory until the identity's holdings change.
 */
import { z } from "zod";
import type { Actor } from "../../actor";
import { rankHeldTools } from "../tool-selection/views";
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
  const ranked = await rankHeldTools(identity.id, query, limit);
  return {
    query,
    tools: ranked.tools.map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      source: tool.sourceName,
    })),
    total: ranked.total,
  };
}
