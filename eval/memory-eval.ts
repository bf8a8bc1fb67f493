/**
 * Retrieval quality of memory search on labelled data: writes each conversation into its
 * own scope through the domain functions, asks every question in that scope, and scores
 * recall@5, recall@10 and MRR (overall and per category) and search latency. Used by
 * `npm run eval:memory` (the full LoCoMo development set) and by the test that holds the
 * floors (a small fixture of our own).
 */
import { randomUUID } from "node:crypto";
import { SYSTEM } from "@/server/actor";
import { createMemory } from "@/server/domain/memory/memories";
import { createScope } from "@/server/domain/memory/scopes";
import { searchMemories } from "@/server/domain/memory/search";
import type { LocomoConversation } from "./locomo";

export interface CategoryScore {
  questions: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
}
export interface EvalReport extends CategoryScore {
  byCategory: Record<string, CategoryScore>;
  /** The same scores over a named group of conversations (e.g. the tuning and check parts). */
  parts: Record<string, CategoryScore & { byCategory: Record<string, CategoryScore> }>;
  searchMs: { p50: number; p95: number };
  /** Hits that came from another conversation's scope (must be 0). */
  crossScopeHits: number;
  memories: number;
}

const CATEGORY = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" } as Record<number, string>;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function evaluateRetrieval(
  conversations: LocomoConversation[],
  partOf: (conversationId: string) => string | null = () => null,
): Promise<EvalReport> {
  const ranks: { category: number; rank: number | null; part: string | null }[] = [];
  const latencies: number[] = [];
  const owner = new Map<string, string>();
  let crossScopeHits = 0;
  let memories = 0;
  const run = randomUUID().slice(0, 8);
  for (const conversation of conversations) {
    const scope = await createScope(SYSTEM, { name: `locomo ${conversation.id} ${run}` });
    const byTurn = new Map<string, string>();
    for (const session of conversation.sessions)
      for (const turn of session.turns) {
        const written = await createMemory(SYSTEM, {
          scopeId: scope.id,
          body: `${turn.speaker}: ${turn.text}`,
          occurredAt: session.at,
        });
        byTurn.set(turn.dia_id, written.id);
        owner.set(written.id, scope.id);
        memories++;
      }
    for (const q of conversation.questions) {
      const wanted = new Set(q.evidence.map((e) => byTurn.get(e)).filter(Boolean));
      const started = performance.now();
      const { hits } = await searchMemories(SYSTEM, { scopeId: scope.id, query: q.question, limit: 10, bodyChars: 0 });
      latencies.push(performance.now() - started);
      crossScopeHits += hits.filter((h) => owner.get(h.id) !== scope.id).length;
      const index = hits.findIndex((h) => wanted.has(h.id));
      ranks.push({ category: q.category, rank: index === -1 ? null : index + 1, part: partOf(conversation.id) });
    }
  }
  const score = (list: typeof ranks): CategoryScore => {
    const n = list.length || 1;
    return {
      questions: list.length,
      recallAt5: list.filter((r) => r.rank !== null && r.rank <= 5).length / n,
      recallAt10: list.filter((r) => r.rank !== null && r.rank <= 10).length / n,
      mrr: list.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / n,
    };
  };
  const byCategory = (list: typeof ranks) =>
    Object.fromEntries(
      [...new Set(list.map((r) => r.category))]
        .sort()
        .map((c) => [CATEGORY[c] ?? String(c), score(list.filter((r) => r.category === c))]),
    );
  const parts = Object.fromEntries(
    [...new Set(ranks.map((r) => r.part).filter((p): p is string => p !== null))].map((p) => {
      const list = ranks.filter((r) => r.part === p);
      return [p, { ...score(list), byCategory: byCategory(list) }];
    }),
  );
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    ...score(ranks),
    byCategory: byCategory(ranks),
    parts,
    searchMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95) },
    crossScopeHits,
    memories,
  };
}

export function formatReport(report: EvalReport): string {
  const f = (x: number) => x.toFixed(3);
  const table = (title: string, s: CategoryScore & { byCategory: Record<string, CategoryScore> }) => [
    "",
    `${title.padEnd(13)} ${"questions".padStart(9)}  recall@5  recall@10  MRR`,
    ...Object.entries({ all: s, ...s.byCategory }).map(
      ([name, c]) =>
        `${name.padEnd(13)} ${String(c.questions).padStart(9)}  ${f(c.recallAt5).padStart(8)}  ${f(c.recallAt10).padStart(9)}  ${f(c.mrr)}`,
    ),
  ];
  const lines = [
    `recall_at_5 ${f(report.recallAt5)}`,
    `recall_at_10 ${f(report.recallAt10)}`,
    `mrr ${f(report.mrr)}`,
    `search_ms_p50 ${report.searchMs.p50.toFixed(1)}`,
    `search_ms_p95 ${report.searchMs.p95.toFixed(1)}`,
    `cross_scope_hits ${report.crossScopeHits}`,
    `questions ${report.questions} memories ${report.memories}`,
    ...table("category", report),
    ...Object.entries(report.parts).flatMap(([name, s]) => table(name, s)),
  ];
  return lines.join("\n");
}
