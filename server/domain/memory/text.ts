/**
 * What the memory domain derives from a body when it is written: its title, its
 * duplicate key, the heading search weighs higher, and the word shingles near-duplicate
 * detection compares. Pure functions, no database.
 */
import { createHash } from "node:crypto";

export const TITLE_CHARS = 200;

/** The first non-empty line, without Markdown heading marks, cut to TITLE_CHARS characters. */
export function titleOf(body: string): string {
  const line =
    body
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  const plain = line.replace(/^#{1,6}\s+/, "");
  const chars = [...plain];
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join("")}…` : plain;
}

/** Whitespace and case folded: two bodies that read the same share this key. */
export function contentHash(body: string): string {
  const folded = body.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return createHash("sha256").update(folded).digest("hex");
}

/**
 * The part of a body that names what it is about, indexed with more weight: a Markdown
 * heading on the first line, or a short label before a colon ("Caroline: …", "Decision: …").
 */
export function splitHeading(body: string): { heading: string; rest: string } {
  const newline = body.indexOf("\n");
  const first = newline === -1 ? body : body.slice(0, newline);
  const markdown = /^\s*#{1,6}\s+(.+)$/.exec(first);
  if (markdown) return { heading: markdown[1] ?? "", rest: newline === -1 ? "" : body.slice(newline + 1) };
  const label = /^\s*([^:\n]{1,60}):\s/.exec(first);
  if (label && !/https?$/i.test(label[1] ?? "")) return { heading: label[1] ?? "", rest: body.slice(label[0].length) };
  return { heading: "", rest: body };
}

/** Lower-case words (letters and digits), as near-duplicate detection compares them. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

// 32-bit FNV-1a: shingle hashing for MinHash, stable across processes and releases.
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const PERMUTATIONS = 64;
const ROWS_PER_BAND = 4;
// Fixed seeds, so band keys written by one release match those of the next.
const SEEDS = Array.from({ length: PERMUTATIONS }, (_, i) => {
  const a = (Math.imul(i + 1, 0x9e3779b1) | 1) >>> 0;
  const b = Math.imul(i + 7, 0x85ebca6b) >>> 0;
  return [a, b] as const;
});

/** Word unigrams and bigrams: near-duplicates share most of them. */
export function shingles(text: string): Set<string> {
  const w = words(text);
  const out = new Set<string>(w);
  for (let i = 0; i + 1 < w.length; i++) out.add(`${w[i]} ${w[i + 1]}`);
  return out;
}

/**
 * MinHash LSH band keys (16 bands of 4 rows): two bodies whose shingle sets have a Jaccard
 * similarity of 0.5 share at least one key with probability ~0.65, at 0.8 with ~0.999.
 * Each key mixes in its band number, so keys of different bands never collide by design.
 */
export function lshBands(text: string): number[] {
  const set = shingles(text);
  if (set.size === 0) return [];
  const hashes = [...set].map(fnv1a);
  const minima = SEEDS.map(([a, b]) => {
    let min = 0xffffffff;
    for (const h of hashes) {
      const v = (Math.imul(a, h) + b) >>> 0;
      if (v < min) min = v;
    }
    return min;
  });
  const bands: number[] = [];
  for (let band = 0; band < PERMUTATIONS / ROWS_PER_BAND; band++) {
    let h = fnv1a(`b${band}`);
    for (let r = 0; r < ROWS_PER_BAND; r++) {
      h ^= minima[band * ROWS_PER_BAND + r] as number;
      h = Math.imul(h, 0x01000193);
    }
    // Stored as a signed 32-bit integer column.
    bands.push(h | 0);
  }
  return bands;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Cuts a body to `max` characters (code points), saying whether it did. */
export function truncate(body: string, max: number): { text: string; truncated: boolean } {
  if (body.length <= max) return { text: body, truncated: false };
  const chars = [...body];
  if (chars.length <= max) return { text: body, truncated: false };
  return { text: chars.slice(0, max).join(""), truncated: true };
}
