/**
 * What operators see of tool selection, and find_tools' ranking: an identity's most
 * confusable Tool pairs (with what they share, a heat map and a suggested fix), a Tool's
 * nearest neighbours across the catalog, and the held Tools best matching a request.
 */
import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { ZToolIdInput } from "../catalog/schemas";
import { ZIdentityIdInput } from "../identities/schemas";
import { parseInput } from "../validation";
import { confusablePairs, type PairSearch } from "./confusable";
import { heldToolIndex } from "./held-index";
import { catalogToolIndex, type IndexedTool, loadTools } from "./indexes";
import { levelOf, suggestFix } from "./pair-advice";
import { searchHeldTools } from "./segments";
import { surfaceForms } from "./text";
import type { SparseVector, ToolIndex } from "./tool-index";
import { fullText } from "./tool-text";

/** Tools in the heat map: those of the top pairs, at most this many. */
const HEAT_MAP_TOOLS = 10;

function toolRef(t: IndexedTool) {
  return { id: t.id, name: t.name, nativeName: t.nativeName, sourceName: t.sourceName, description: t.description };
}

/** The words two Tools share, most telling first, as the first of them writes them. */
function sharedWords(index: ToolIndex<IndexedTool>, a: number, b: number, limit = 8): string[] {
  const forms = surfaceForms(fullText(index.tools[a] as IndexedTool));
  return index
    .sharedTerms(a, b)
    .slice(0, limit)
    .map((s) => forms.get(s.term) ?? s.term);
}

export async function identityConfusablePairs(actor: Actor, raw: { id: string }) {
  requireRole(actor, "viewer");
  const { id } = parseInput(ZIdentityIdInput, raw);
  const db = await getDb();
  if (!(await db.agentIdentity.findUnique({ where: { id }, select: { id: true } }))) throw notFound("Agent Identity");
  const started = performance.now();
  const held = await heldToolIndex(id);
  const { index } = held;
  let search = held.memo.get("pairs") as PairSearch | undefined;
  const cached = Boolean(search);
  if (!search) {
    search = confusablePairs(index, {
      threshold: LIMITS.CONFUSABLE_MIN_SIMILARITY.value,
      limit: LIMITS.CONFUSABLE_PAIRS.value,
    });
    held.memo.set("pairs", search);
  }
  const pairs = search.pairs.map((p) => {
    const a = index.tools[p.a] as IndexedTool;
    const b = index.tools[p.b] as IndexedTool;
    const shared = sharedWords(index, p.a, p.b);
    return {
      similarity: p.similarity,
      level: levelOf(p.similarity),
      a: toolRef(a),
      b: toolRef(b),
      shared,
      fix: suggestFix(a, b, shared, p.similarity),
    };
  });
  const heat: number[] = [];
  for (const p of search.pairs) {
    for (const t of [p.a, p.b]) if (!heat.includes(t) && heat.length < HEAT_MAP_TOOLS) heat.push(t);
  }
  return {
    version: held.version,
    tools: index.size,
    threshold: LIMITS.CONFUSABLE_MIN_SIMILARITY.value,
    /** Pairs scored exactly; the rest of the n·(n−1)/2 were ruled out without scoring. */
    comparedPairs: search.candidates,
    cached,
    computedMs: Math.round(performance.now() - started),
    pairs,
    heatMap: {
      tools: heat.map((t) => ({ id: (index.tools[t] as IndexedTool).id, name: (index.tools[t] as IndexedTool).name })),
      similarity: heat.map((x) => heat.map((y) => (x === y ? 1 : index.similarity(x, y)))),
    },
  };
}

export async function toolNeighbours(actor: Actor, raw: { id: string }) {
  requireRole(actor, "viewer");
  const { id } = parseInput(ZToolIdInput, raw);
  const { index, version } = await catalogToolIndex();
  const at = index.tools.findIndex((t) => t.id === id);
  let vector: SparseVector;
  let words: Map<string, string>;
  if (at >= 0) {
    vector = index.vectors[at] as SparseVector;
    words = surfaceForms(fullText(index.tools[at] as IndexedTool));
  } else {
    // A Tool no model is offered (incompatible, or its host silent) is compared with those
    // that are: the operator fixing it should know what it would be confused with.
    const [tool] = await loadTools({ id });
    if (!tool) throw notFound("Tool");
    vector = index.toolVector(tool);
    words = surfaceForms(fullText(tool));
  }
  const neighbours = index.nearest(vector, LIMITS.TOOL_NEIGHBOURS.value, at).map((r) => ({
    similarity: r.score,
    level: r.score >= LIMITS.CONFUSABLE_MIN_SIMILARITY.value ? levelOf(r.score) : null,
    tool: toolRef(index.tools[r.index] as IndexedTool),
    shared: index
      .sharedOf(vector, index.vectors[r.index] as SparseVector)
      .slice(0, 5)
      .map((s) => words.get(s.term) ?? s.term),
  }));
  return { version, tools: index.size, offered: at >= 0, neighbours };
}

/**
 * A held Tool's score must reach this share of the best one's to be listed: "customer
 * orders" then finds list_orders, not every Tool that mentions a customer.
 */
const RELATIVE_CUTOFF = 0.4;

/** The held Tools best matching a request, best first, and how many match well enough in all. */
export async function rankHeldTools(identityId: string, query: string, limit: number) {
  return searchHeldTools(identityId, query, limit, RELATIVE_CUTOFF);
}
