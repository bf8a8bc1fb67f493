/**
 * BM25 over weighted term bags: find_tools' ranking of an identity's Tools. Cosine (the
 * confusable pairs' measure) divides by a Tool's whole length, so a Tool with a long,
 * careful description loses to a terse one that happens to repeat a word; BM25 saturates
 * each word's count (k1) and only softly discounts length (b), which ranks a request
 * against thousands of Tools better (docs/decisions/0057-tool-search.md).
 */
export interface Bm25Options {
  k1: number;
  b: number;
}

export const BM25_DEFAULTS: Bm25Options = { k1: 1.2, b: 0.5 };

/** Corpus statistics a score is computed with: one Bm25Postings' own, or several segments' together. */
export interface Bm25Stats {
  documents: number;
  meanLength: number;
  /** Documents using a term, over the whole corpus. */
  df(term: string): number;
}

export class Bm25Postings {
  private readonly ids = new Map<string, number>();
  /** Per term: the documents that use it, ascending, and its weighted count in each. */
  private readonly docs: Int32Array[];
  private readonly counts: Float64Array[];
  private readonly lengths: Float64Array;
  readonly documents: number;
  /** Sum of the documents' lengths (segments add theirs for a mean over all of them). */
  readonly totalLength: number;
  /** Scored against its own statistics. */
  readonly ownStats: Bm25Stats;

  constructor(
    bags: readonly Map<string, number>[],
    private readonly options: Bm25Options = BM25_DEFAULTS,
  ) {
    const df: number[] = [];
    for (const bag of bags)
      for (const term of bag.keys()) {
        let id = this.ids.get(term);
        if (id === undefined) {
          id = df.length;
          this.ids.set(term, id);
          df.push(0);
        }
        df[id] = (df[id] as number) + 1;
      }
    this.documents = bags.length;
    this.docs = df.map((d) => new Int32Array(d));
    this.counts = df.map((d) => new Float64Array(d));
    const fill = new Int32Array(df.length);
    bags.forEach((bag, doc) => {
      for (const [term, count] of bag) {
        const id = this.ids.get(term) as number;
        const at = fill[id] as number;
        (this.docs[id] as Int32Array)[at] = doc;
        (this.counts[id] as Float64Array)[at] = count;
        fill[id] = at + 1;
      }
    });
    this.lengths = Float64Array.from(bags, (bag) => {
      let sum = 0;
      for (const w of bag.values()) sum += w;
      return sum;
    });
    this.totalLength = this.lengths.reduce((a, b) => a + b, 0);
    this.ownStats = combinedStats([this]);
  }

  /** Documents using a term, in this set. */
  df(term: string): number {
    const id = this.ids.get(term);
    return id === undefined ? 0 : (this.docs[id] as Int32Array).length;
  }

  /**
   * Adds `weight` × each query term's BM25 score to every document that has it, with the
   * statistics of `stats` (its own unless this set is one segment of a larger corpus).
   */
  addScores(queryTerms: Iterable<string>, scores: Float64Array, weight = 1, stats: Bm25Stats = this.ownStats): void {
    const { k1, b } = this.options;
    const n = stats.documents;
    const seen = new Set<number>();
    for (const term of queryTerms) {
      const id = this.ids.get(term);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const d = stats.df(term);
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5)) * weight;
      const docs = this.docs[id] as Int32Array;
      const counts = this.counts[id] as Float64Array;
      for (let k = 0; k < docs.length; k++) {
        const doc = docs[k] as number;
        const f = counts[k] as number;
        const norm = 1 - b + (b * (this.lengths[doc] as number)) / stats.meanLength;
        scores[doc] = (scores[doc] as number) + (idf * f * (k1 + 1)) / (f + k1 * norm);
      }
    }
  }
}

/** The statistics of several sets scored as one corpus (an identity's Sources' segments). */
export function combinedStats(sets: readonly Bm25Postings[]): Bm25Stats {
  let documents = 0;
  let length = 0;
  for (const s of sets) {
    documents += s.documents;
    length += s.totalLength;
  }
  return {
    documents,
    meanLength: length / (documents || 1) || 1,
    df: (term) => {
      let d = 0;
      for (const s of sets) d += s.df(term);
      return d;
    },
  };
}
