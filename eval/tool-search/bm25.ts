/**
 * The plain BM25 baseline the tool-search eval prints beside find_tools (the data README's
 * definition): k1 1.2, b 0.75, over lower-cased word tokens of the name split on `_` and
 * camelCase plus the description. No stemming, no stop words, no parameters: what a
 * reasonable first attempt at tool search would do.
 */
export interface Bm25Doc {
  name: string;
  description: string;
}

const K1 = 1.2;
const B = 0.75;

export function bm25Tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export class Bm25 {
  private readonly docs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly avgLength: number;
  private readonly df = new Map<string, number>();

  constructor(private readonly items: readonly Bm25Doc[]) {
    this.docs = items.map((d) => {
      const tf = new Map<string, number>();
      for (const t of bm25Tokens(`${d.name.replace(/[_.-]/g, " ")} ${d.description}`)) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.docs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / (this.lengths.length || 1);
    for (const tf of this.docs) for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  /** Names of the best `limit` documents, best first (ties by name). */
  rank(query: string, limit: number): string[] {
    const n = this.items.length;
    const terms = new Set(bm25Tokens(query));
    const scored: { name: string; score: number }[] = [];
    this.docs.forEach((tf, i) => {
      let score = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * (this.lengths[i] as number)) / this.avgLength));
      }
      if (score > 0) scored.push({ name: (this.items[i] as Bm25Doc).name, score });
    });
    scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.name);
  }
}
