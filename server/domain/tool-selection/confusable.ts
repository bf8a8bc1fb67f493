/**
 * The most confusable pairs of a set of Tools, without comparing every pair (7,000 Tools
 * are 24.5 million pairs). Prefix filtering (Bayardo et al., "Scaling up all pairs
 * similarity search", 2007): each Tool's terms are ordered common-first, and only the
 * rarer tail whose weight could still lift a pair to the threshold goes into the candidate
 * index. A pair at or above the threshold must share a term of one Tool's indexed tail, so
 * probing that index finds every such pair (exactly; the rest are never scored), while
 * words most Tools use ("returns", "the company's" name) rarely make a candidate.
 */
import { dot, type SparseVector, type ToolIndex } from "./tool-index";

export interface ScoredPair {
  a: number;
  b: number;
  similarity: number;
}

export interface PairSearch {
  pairs: ScoredPair[];
  /** Pairs scored exactly (the rest were ruled out by the filter). */
  candidates: number;
}

/** A min-heap of the best `size` pairs seen. */
class TopPairs {
  private readonly heap: ScoredPair[] = [];
  constructor(private readonly size: number) {}

  get floor(): number {
    return this.heap.length < this.size ? -1 : (this.heap[0] as ScoredPair).similarity;
  }

  push(pair: ScoredPair): void {
    const h = this.heap;
    if (h.length < this.size) {
      h.push(pair);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((h[parent] as ScoredPair).similarity <= (h[i] as ScoredPair).similarity) break;
        [h[parent], h[i]] = [h[i] as ScoredPair, h[parent] as ScoredPair];
        i = parent;
      }
    } else if (pair.similarity > (h[0] as ScoredPair).similarity) {
      h[0] = pair;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && (h[l] as ScoredPair).similarity < (h[m] as ScoredPair).similarity) m = l;
        if (r < h.length && (h[r] as ScoredPair).similarity < (h[m] as ScoredPair).similarity) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i] as ScoredPair, h[m] as ScoredPair];
        i = m;
      }
    }
  }

  sorted(): ScoredPair[] {
    return [...this.heap].sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
  }
}

/**
 * The `limit` most similar pairs of the index's Tools whose similarity is at least
 * `threshold`, most similar first. A threshold of 0 compares every pair sharing a word.
 */
export function confusablePairs(index: ToolIndex, options: { threshold: number; limit: number }): PairSearch {
  const { threshold, limit } = options;
  const n = index.size;
  const termCount = index.termNames.length;
  // Largest weight each term has in any Tool: bounds what an unindexed term can add.
  const maxWeight = new Float64Array(termCount);
  for (const v of index.vectors)
    for (let k = 0; k < v.ids.length; k++) {
      const t = v.ids[k] as number;
      if ((v.weights[k] as number) > (maxWeight[t] as number)) maxWeight[t] = v.weights[k] as number;
    }

  // Each Tool's indexed tail: its terms rarest-last, skipping the common head whose bound
  // Σ w·maxWeight stays under the threshold.
  const tailLength = new Int32Array(termCount);
  const tails: Int32Array[] = index.vectors.map((v) => {
    const order = Array.from(v.ids.keys()).sort(
      (x, y) => (index.df[v.ids[y] as number] as number) - (index.df[v.ids[x] as number] as number) || x - y,
    );
    let bound = 0;
    let start = 0;
    while (start < order.length) {
      const k = order[start] as number;
      const add = (v.weights[k] as number) * (maxWeight[v.ids[k] as number] as number);
      if (bound + add >= threshold) break;
      bound += add;
      start++;
    }
    const tail = Int32Array.from(order.slice(start), (k) => v.ids[k] as number);
    for (const t of tail) tailLength[t] = (tailLength[t] as number) + 1;
    return tail;
  });
  const partial = Array.from({ length: termCount }, (_, t) => new Int32Array(tailLength[t] as number));
  const fill = new Int32Array(termCount);
  tails.forEach((tail, doc) => {
    for (const t of tail) {
      (partial[t] as Int32Array)[fill[t] as number] = doc;
      fill[t] = (fill[t] as number) + 1;
    }
  });

  const top = new TopPairs(limit);
  const seen = new Int32Array(n).fill(-1);
  let candidates = 0;
  for (let a = 0; a < n; a++) {
    const x = index.vectors[a] as SparseVector;
    for (let k = 0; k < x.ids.length; k++) {
      const list = partial[x.ids[k] as number] as Int32Array;
      for (let p = 0; p < list.length; p++) {
        const b = list[p] as number;
        // Each unordered pair once, from its lower Tool (the proof holds either way round).
        if (b <= a || seen[b] === a) continue;
        seen[b] = a;
        candidates++;
        const similarity = dot(x, index.vectors[b] as SparseVector);
        if (similarity >= threshold && similarity > top.floor) top.push({ a, b, similarity });
      }
    }
  }
  return { pairs: top.sorted(), candidates };
}
