/**
 * find_tools' ranking legs over a set of Tools' weighted terms (decision 0057): BM25 over the
 * terms (and the Source's name), BM25 over five-letter prefixes at 0.4, and the terms a
 * request implies (query-hints.ts) at 0.3. One set is one Source's Tools (a segment) or a
 * whole ToolIndex; several segments are scored as one corpus, so an identity's ranking is the
 * same whether its Sources' Tools were indexed together or each on its own.
 */
import { Bm25Postings, combinedStats } from "./bm25";
import { impliedTerms } from "./query-hints";
import { terms } from "./text";
import { FIELD_WEIGHTS } from "./tool-text";

/** How much a shared prefix counts, and a term the request implies, against a term it says. */
const PREFIX_WEIGHT = 0.4;
const IMPLIED_WEIGHT = 0.3;

/** Word forms a stemmer keeps apart ("discovered", "discoverer", "discovery") share their first letters. */
const PREFIX = 5;
const prefixOf = (term: string) => (term.length > PREFIX ? term.slice(0, PREFIX) : term);

function prefixBag(bag: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [term, w] of bag) {
    const p = prefixOf(term);
    out.set(p, (out.get(p) ?? 0) + w);
  }
  return out;
}

function withSourceName(bag: Map<string, number>, sourceName: string | undefined): Map<string, number> {
  if (!sourceName) return bag;
  const out = new Map(bag);
  for (const term of terms(sourceName)) out.set(term, (out.get(term) ?? 0) + FIELD_WEIGHTS.sourceName);
  return out;
}

export class SearchLegs {
  readonly words: Bm25Postings;
  readonly prefixes: Bm25Postings;

  /** `bags[i]` are Tool i's weighted terms; its Source's name counts here, not in similarity. */
  constructor(bags: readonly Map<string, number>[], sourceNames: readonly (string | undefined)[]) {
    const searched = bags.map((bag, i) => withSourceName(bag, sourceNames[i]));
    this.words = new Bm25Postings(searched);
    this.prefixes = new Bm25Postings(searched.map(prefixBag));
  }

  get size(): number {
    return this.words.documents;
  }
}

/** A request's score for every Tool of each set, the sets scored as one corpus (scores[set][tool]). */
export function scoreRequest(sets: readonly SearchLegs[], text: string): Float64Array[] {
  const wordStats = combinedStats(sets.map((s) => s.words));
  const prefixStats = combinedStats(sets.map((s) => s.prefixes));
  const asked = terms(text);
  const prefixes = asked.map(prefixOf);
  const implied = impliedTerms(text).filter((t) => !asked.includes(t));
  return sets.map((set) => {
    const scores = new Float64Array(set.size);
    set.words.addScores(asked, scores, 1, wordStats);
    set.prefixes.addScores(prefixes, scores, PREFIX_WEIGHT, prefixStats);
    set.words.addScores(implied, scores, IMPLIED_WEIGHT, wordStats);
    return scores;
  });
}
