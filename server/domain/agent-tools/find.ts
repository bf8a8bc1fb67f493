/**
 * find_tools: searches the Tools an Agent Identity holds by name, description and
 * parameters, so an agent holding thousands can reach the one it needs without listing
 * them all. Ranked by the same tool-selection index the console's confusable pairs use
 * (server/domain/tool-selection), kept in memory until the identity's holdings change.
 * Each match carries its input schema, so the model can call it at once — directly or
 * through call_tool — without a listing that holds it.
 */
import { z } from "zod";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { isDestructive, loadCallPolicyDefaults } from "../call-policies/defaults";
import { type CallPolicyName, effectivePolicy } from "../call-policies/policy";
import { rankHeldTools } from "../tool-selection/views";
import { parseInput } from "../validation";
import { servedIdentity } from "./identity";
import { routed } from "./route-cache";

export const ZFindToolsInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, "say what the Tool should do or what it is called")
    .max(
      LIMITS.FIND_TOOLS_QUERY_CHARS.value,
      `at most ${LIMITS.FIND_TOOLS_QUERY_CHARS.value} characters (FIND_TOOLS_QUERY_CHARS)`,
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.FIND_TOOLS_RESULTS.value, `at most ${LIMITS.FIND_TOOLS_RESULTS.value} (FIND_TOOLS_RESULTS)`)
    .default(10),
});

export interface FoundTool {
  name: string;
  description: string;
  source: string;
  inputSchema: Record<string, unknown>;
  /** Present when a call needs a person first (confirm, approve), with why. */
  callPolicy?: { policy: CallPolicyName; reason: string };
}

export async function findOfferedTools(
  actor: Actor,
  raw: unknown,
): Promise<{ query: string; tools: FoundTool[]; total: number }> {
  // The same lookup, under the same key, as a Tool Call's (call.ts): an agent that searches
  // and then calls reads its identity and budget once.
  const identity = await routed(`identity\0${actor.kind === "agent" ? actor.identityId : ""}`, () =>
    servedIdentity(actor),
  );
  const { query, limit } = parseInput(ZFindToolsInput, raw);
  const ranked = await rankHeldTools(identity.id, query, limit);
  const definitions = await definitionsOf(ranked.tools.map(({ tool }) => tool.definitionHash));
  const policies = await policiesOf(
    ranked.tools.map(({ tool }) => tool.name),
    (hash) => isDestructive(definitions.get(hash)),
  );
  return {
    query,
    tools: ranked.tools.map(({ tool }) => ({
      ...(policies.has(tool.name) ? { callPolicy: policies.get(tool.name) } : {}),
      name: tool.name,
      description: tool.description,
      source: tool.sourceName,
      // Publication writes a definition before its Tool; an empty object schema is what
      // tools/list would send for a Tool without one.
      inputSchema: (definitions.get(tool.definitionHash)?.inputSchema as Record<string, unknown> | undefined) ?? {
        type: "object",
      },
    })),
    total: ranked.total,
  };
}

/** The call policies, other than none, of a few Tools by model-facing name. */
async function policiesOf(
  names: string[],
  destructive: (definitionHash: string) => boolean,
): Promise<Map<string, { policy: CallPolicyName; reason: string }>> {
  if (!names.length) return new Map();
  const db = await getDb();
  const [tools, { confirmDestructive }] = await Promise.all([
    db.tool.findMany({
      where: { modelFacingName: { in: names } },
      select: {
        modelFacingName: true,
        definitionHash: true,
        callPolicy: true,
        source: { select: { name: true, callPolicy: true } },
      },
    }),
    loadCallPolicyDefaults(),
  ]);
  const found = new Map<string, { policy: CallPolicyName; reason: string }>();
  for (const tool of tools) {
    const effective = effectivePolicy(tool, tool.source, {
      confirmDestructive,
      destructive: destructive(tool.definitionHash),
    });
    if (effective.policy !== "none" && tool.modelFacingName) found.set(tool.modelFacingName, effective);
  }
  return found;
}

/**
 * Stored definitions by hash, least recently used first. A definition is stored under the
 * hash of its content, so what a hash names never changes: no entry can go stale. Shared
 * between calls: read, never changed.
 */
const definitionCache = new Map<string, Record<string, unknown>>();

/** A few stored definitions (input schema, annotations), by hash. */
async function definitionsOf(hashes: string[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const hit = definitionCache.get(hash);
    if (!hit) {
      missing.push(hash);
      continue;
    }
    definitionCache.delete(hash);
    definitionCache.set(hash, hit);
    found.set(hash, hit);
  }
  if (!missing.length) return found;
  const db = await getDb();
  const stored = await db.toolDefinition.findMany({
    where: { hash: { in: missing } },
    select: { hash: true, definition: true },
  });
  for (const d of stored) {
    const definition = JSON.parse(d.definition) as Record<string, unknown>;
    found.set(d.hash, definition);
    definitionCache.set(d.hash, definition);
  }
  while (definitionCache.size > LIMITS.FIND_TOOLS_DEFINITION_CACHE.value)
    definitionCache.delete(definitionCache.keys().next().value as string);
  return found;
}
