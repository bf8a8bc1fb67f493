/**
 * find_tools' answer spreads over what an identity can do instead of repeating one thing
 * (docs/decisions/0099-find-tools-near-copies.md). A large identity holds near-copies —
 * the same Tool from two Sources, versions that differ by a word — and a plain ranking gives
 * them consecutive places, so a request that matches one of them fills the first five with
 * copies and pushes out a different Tool that was the one meant. Each place is filled, best
 * first, by the candidate whose score (as a share of the best) minus its likeness to a Tool
 * already placed is highest; likeness below NEAR_COPY counts as none, so Tools that merely
 * share a topic keep their order. Greedy over a fixed pool, so the first n of a longer answer
 * are the answer for n.
 */

/** Candidates re-ordered: the best `POOL` by score; the rest follow in score order. */
export const DIVERSITY_POOL = 40;
/** Cosine (tf-idf over the Tools' weighted terms) from which two Tools count as near-copies. */
export const NEAR_COPY = 0.7;
/** How much a near-copy of a placed Tool loses, per unit of likeness, against the best score. */
export const NEAR_COPY_PENALTY = 0.3;

export interface Candidate {
  score: number;
}

/**
 * `ranked` best first; `bagOf(c)` a candidate's weighted terms; `df(term)` how many of the
 * `documents` Tools use a term. Returns the same candidates, near-copies moved down; places
 * are filled until `wanted` of them hold a candidate that `counts`, the rest left in score
 * order (the answer's first `wanted` are all a caller reads).
 */
export function diversify<C extends Candidate>(
  ranked: readonly C[],
  bagOf: (c: C) => ReadonlyMap<string, number>,
  df: (term: string) => number,
  documents: number,
  wanted: number = ranked.length,
  counts: (c: C) => boolean = () => true,
): C[] {
  const pool = ranked.slice(0, DIVERSITY_POOL);
  if (pool.length < 3) return [...ranked];
  const top = (pool[0] as C).score || 1;
  const idf = new Map<string, number>();
  const vectors = pool.map((c) => {
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [term, weight] of bagOf(c)) {
      let w = idf.get(term);
      if (w === undefined) {
        w = Math.log(1 + documents / Math.max(1, df(term)));
        idf.set(term, w);
      }
      const v = (weight >= 1 ? 1 + Math.log(weight) : weight) * w;
      vector.set(term, v);
      norm += v * v;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, v] of vector) vector.set(term, v / norm);
    return vector;
  });
  const cosine = (a: Map<string, number>, b: Map<string, number>) => {
    const [small, large] = a.size <= b.size ? [a, b] : [b, a];
    let sum = 0;
    for (const [term, v] of small) {
      const w = large.get(term);
      if (w !== undefined) sum += v * w;
    }
    return sum;
  };
  // Likeness of each remaining candidate to its nearest placed Tool, kept up to date.
  const nearest = new Float64Array(pool.length);
  const left = pool.map((_, i) => i);
  const order: C[] = [];
  let counted = 0;
  while (left.length && counted < wanted) {
    let at = 0;
    let best = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < left.length; k++) {
      const i = left[k] as number;
      const like = nearest[i] as number;
      const value = (pool[i] as C).score / top - (like >= NEAR_COPY ? NEAR_COPY_PENALTY * like : 0);
      // Strictly greater: on a tie the earlier (better-ranked) candidate stays first.
      if (value > best + 1e-12) {
        best = value;
        at = k;
      }
    }
    const placed = left.splice(at, 1)[0] as number;
    order.push(pool[placed] as C);
    if (counts(pool[placed] as C)) counted++;
    const vector = vectors[placed] as Map<string, number>;
    for (const i of left) {
      const like = cosine(vector, vectors[i] as Map<string, number>);
      if (like > (nearest[i] as number)) nearest[i] = like;
    }
  }
  for (const i of left) order.push(pool[i] as C);
  return order.concat(ranked.slice(DIVERSITY_POOL));
}
