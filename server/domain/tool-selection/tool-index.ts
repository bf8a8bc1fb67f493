/**
 * A tf-idf index over a set of Tools (an identity's holdings, the catalog, or /mcp's
 * built-ins): each Tool a unit vector of term weights, so the similarity of two Tools, or
 * of a request and a Tool, is their cosine in [0, 1]. Inverse document frequency comes from
 * the set itself: a word every Tool of an identity uses ("returns", the company's name)
 * tells that identity's Tools apart less than a word only two of them use.
 *
 * Vectors are sparse (term ids ascending, weights) in typed arrays, and every term has a
 * posting list, so ranking a request touches only the Tools that share a word with it.
 */
import { DIVERSITY_POOL, diversify } from "./diversify";
import { SearchLegs, scoreRequest } from "./search-legs";
import { terms } from "./text";
import { type ToolText, weightedTerms } from "./tool-text";

export interface SparseVector {
  ids: Int32Array;
  weights: Float64Array;
}

export interface Ranked {
  index: number;
  score: number;
}

/** Sub-linear term frequency: a word said five times is not five times as telling. */
function tf(weight: number): number {
  return weight >= 1 ? 1 + Math.log(weight) : weight;
}

function normalize(entries: [number, number][]): SparseVector {
  entries.sort((a, b) => a[0] - b[0]);
  let norm = 0;
  for (const [, w] of entries) norm += w * w;
  norm = Math.sqrt(norm) || 1;
  return {
    ids: Int32Array.from(entries, (e) => e[0]),
    weights: Float64Array.from(entries, (e) => e[1] / norm),
  };
}

/** Unit vector of the known terms, shortened by the share of its length that unknown terms hold. */
function scaled(known: [number, number][], unknownNorm: number): SparseVector {
  let knownNorm = 0;
  for (const [, w] of known) knownNorm += w * w;
  const vector = normalize(known);
  const scale = Math.sqrt(knownNorm / (knownNorm + unknownNorm)) || 0;
  for (let k = 0; k < vector.weights.length; k++) vector.weights[k] = (vector.weights[k] as number) * scale;
  return vector;
}

export function dot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i] as number;
    const y = b.ids[j] as number;
    if (x === y) sum += (a.weights[i++] as number) * (b.weights[j++] as number);
    else if (x < y) i++;
    else j++;
  }
  // Rounding can put identical unit vectors a hair above 1.
  return Math.min(1, sum);
}

export class ToolIndex<T extends ToolText = ToolText> {
  readonly tools: readonly T[];
  readonly vectors: SparseVector[];
  /** Term → id; ids index df, idf and the posting lists. */
  readonly termIds = new Map<string, number>();
  readonly termNames: string[] = [];
  readonly df: Int32Array;
  readonly idf: Float64Array;
  /** Per term: the Tools that use it and their weight for it, Tool order ascending. */
  readonly postings: SparseVector[];
  /** The same weighted terms for BM25 (find_tools' ranking); built on first use. */
  private legs?: SearchLegs;
  readonly bags: Map<string, number>[] = [];

  /** `analysed[i]`, when given, are Tool i's weighted terms (a segment's), not computed again. */
  constructor(tools: readonly T[], analysed?: readonly Map<string, number>[]) {
    this.tools = tools;
    const bags = tools.map((t, i) => {
      const bag: [number, number][] = [];
      const weighted = analysed?.[i] ?? weightedTerms(t);
      this.bags.push(weighted);
      for (const [term, weight] of weighted) bag.push([this.idFor(term), weight]);
      return bag;
    });
    const termCount = this.termNames.length;
    this.df = new Int32Array(termCount);
    for (const bag of bags) for (const [id] of bag) this.df[id] = (this.df[id] as number) + 1;
    this.idf = new Float64Array(termCount);
    // Smoothed so a word every Tool uses still counts a little (ln 2, against ln(1 + N) for
    // a word only one Tool uses): identical Tools stay identical, not empty.
    for (let t = 0; t < termCount; t++) this.idf[t] = Math.log(1 + tools.length / (this.df[t] as number));
    this.vectors = bags.map((bag) => normalize(bag.map(([id, w]) => [id, tf(w) * (this.idf[id] as number)])));
    this.postings = this.buildPostings(this.vectors, termCount);
  }

  get size(): number {
    return this.tools.length;
  }

  private idFor(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
    }
    return id;
  }

  private buildPostings(vectors: SparseVector[], termCount: number): SparseVector[] {
    const fill = new Int32Array(termCount);
    const postings = Array.from({ length: termCount }, (_, t) => ({
      ids: new Int32Array(this.df[t] as number),
      weights: new Float64Array(this.df[t] as number),
    }));
    vectors.forEach((v, doc) => {
      for (let k = 0; k < v.ids.length; k++) {
        const t = v.ids[k] as number;
        const p = postings[t] as SparseVector;
        const at = fill[t] as number;
        p.ids[at] = doc;
        p.weights[at] = v.weights[k] as number;
        fill[t] = at + 1;
      }
    });
    return postings;
  }

  /**
   * A request as a unit vector in this index's space. Words no Tool uses still count in its
   * length (as the rarest words), so a request that is mostly about something no Tool
   * offers scores low against every Tool instead of high against one.
   */
  queryVector(text: string): SparseVector {
    const counts = new Map<string, number>();
    for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const known: [number, number][] = [];
    let unknownNorm = 0;
    const rarest = Math.log(1 + this.tools.length);
    for (const [term, count] of counts) {
      const id = this.termIds.get(term);
      if (id === undefined) unknownNorm += (tf(count) * rarest) ** 2;
      else known.push([id, tf(count) * (this.idf[id] as number)]);
    }
    return scaled(known, unknownNorm);
  }

  /**
   * A Tool outside the index (one no model is offered) as a vector of this space, weighted
   * as a member would be; terms the index has never seen count in its length only.
   */
  toolVector(tool: ToolText): SparseVector {
    const known: [number, number][] = [];
    let unknownNorm = 0;
    const rarest = Math.log(1 + this.tools.length);
    for (const [term, weight] of weightedTerms(tool)) {
      const id = this.termIds.get(term);
      if (id === undefined) unknownNorm += (tf(weight) * rarest) ** 2;
      else known.push([id, tf(weight) * (this.idf[id] as number)]);
    }
    return scaled(known, unknownNorm);
  }

  /** The `limit` Tools nearest to a vector of this space, nearest first. */
  nearest(vector: SparseVector, limit: number, exclude = -1): Ranked[] {
    const scores = this.scoresFor(vector);
    if (exclude >= 0) scores[exclude] = 0;
    return this.top(scores, limit);
  }

  /** Every Tool's cosine with a vector of this space (dense; index = Tool). */
  scoresFor(vector: SparseVector): Float64Array {
    const scores = new Float64Array(this.tools.length);
    for (let k = 0; k < vector.ids.length; k++) {
      const p = this.postings[vector.ids[k] as number];
      if (!p) continue;
      const w = vector.weights[k] as number;
      for (let n = 0; n < p.ids.length; n++) {
        const doc = p.ids[n] as number;
        scores[doc] = (scores[doc] as number) + w * (p.weights[n] as number);
      }
    }
    return scores;
  }

  /** The Tools best matching a request, best first; ties by name so the order is stable. */
  rank(text: string, limit = this.tools.length): Ranked[] {
    return this.top(this.scoresFor(this.queryVector(text)), limit);
  }

  /**
   * find_tools' ranking: BM25 of the request over the same weighted terms, near-copies of a
   * better match moved down (diversify.ts). Scores are not cosines and not capped at 1; only
   * their ratios mean anything, and a near-copy may follow a Tool that scored lower.
   */
  search(text: string, limit = this.tools.length): Ranked[] {
    this.legs ??= this.searchLegs();
    const ranked = this.top(scoreRequest([this.legs], text)[0] as Float64Array, Math.max(limit, DIVERSITY_POOL), false);
    const { df, documents } = this.legs.words.ownStats;
    return diversify(ranked, (r) => this.bags[r.index] as Map<string, number>, df, documents, limit).slice(0, limit);
  }

  /** find_tools' legs over this index's Tools (a Source's segment keeps its own). */
  searchLegs(): SearchLegs {
    return new SearchLegs(
      this.bags,
      this.tools.map((t) => t.sourceName),
    );
  }

  /** The `limit` Tools nearest to Tool `index` (itself excluded), nearest first. */
  neighbours(index: number, limit: number): Ranked[] {
    return this.nearest(this.vectors[index] as SparseVector, limit, index);
  }

  /** Cosine of two Tools of this index. */
  similarity(a: number, b: number): number {
    return dot(this.vectors[a] as SparseVector, this.vectors[b] as SparseVector);
  }

  /** The terms two Tools share, by how much each adds to their similarity, largest first. */
  sharedTerms(a: number, b: number): { term: string; weight: number }[] {
    return this.sharedOf(this.vectors[a] as SparseVector, this.vectors[b] as SparseVector);
  }

  /** sharedTerms for any two vectors of this space. */
  sharedOf(x: SparseVector, y: SparseVector): { term: string; weight: number }[] {
    const shared: { term: string; weight: number }[] = [];
    let i = 0;
    let j = 0;
    while (i < x.ids.length && j < y.ids.length) {
      const s = x.ids[i] as number;
      const t = y.ids[j] as number;
      if (s === t) {
        shared.push({ term: this.termNames[s] as string, weight: (x.weights[i] as number) * (y.weights[j] as number) });
        i++;
        j++;
      } else if (s < t) i++;
      else j++;
    }
    return shared.sort((p, q) => q.weight - p.weight);
  }

  private top(scores: Float64Array, limit: number, cosine = true): Ranked[] {
    const hits: Ranked[] = [];
    for (let i = 0; i < scores.length; i++)
      if ((scores[i] as number) > 0) hits.push({ index: i, score: scores[i] as number });
    const byName = (a: Ranked, b: Ranked) => {
      const x = (this.tools[a.index] as T).name;
      const y = (this.tools[b.index] as T).name;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    // Scores equal to rounding are ties.
    hits.sort((a, b) => (Math.abs(b.score - a.score) > 1e-12 ? b.score - a.score : byName(a, b)));
    return hits.slice(0, limit).map((h) => ({ index: h.index, score: cosine ? Math.min(1, h.score) : h.score }));
  }
}
