/**
 * Words → terms for the tool-selection scorer: split identifiers (snake_case, camelCase,
 * kebab-case), lower-case, drop stop words, stem (Porter), then fold a small table of
 * synonyms onto one term, so "save" in an agent's request meets "store" in a description.
 * See docs/decisions/0040-tool-selection-scorer.md.
 */
import { stemmer } from "stemmer";
import { SYNONYM_GROUPS } from "./synonyms";

// Function words that say nothing about what a Tool does. Kept short on purpose: "not",
// "new", "all", "before" and the like can tell two Tools apart, so they stay.
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from had has have i if in into is it its " +
    "me my of on or our so than that the their them then there these they this those to us was we were " +
    "what when where which while who whom why will with would you your yours i'm i've i'd it's let's " +
    "please just also any some one very"
  ).split(" "),
);

/** Stem → the term its synonym group is counted as. */
const CANONICAL = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const stems = group.map((w) => stemmer(w.toLowerCase()));
  const head = stems[0] as string;
  for (const s of stems) if (!CANONICAL.has(s)) CANONICAL.set(s, head);
}

const TOKEN = /[\p{L}\p{N}']+/gu;

/** The raw words of a text, identifiers split into their parts ("get_memories" → get, memories). */
export function words(text: string): string[] {
  const out: string[] = [];
  // camelCase and digits-to-letters boundaries become spaces before the split.
  const spaced = /[A-Z]/.test(text)
    ? text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    : text;
  for (const match of spaced.toLowerCase().matchAll(TOKEN)) {
    let word = match[0];
    if (word.includes("'")) word = word.replace(/^'+|'+$/g, "").replace(/'s$/, "");
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    out.push(word);
  }
  return out;
}

/**
 * Word → term, remembered: a catalog repeats the same few thousand words, and stemming is
 * most of the cost of indexing 7,000 Tools. Bounded so odd input cannot grow it for ever.
 */
const TERM_MEMO = new Map<string, string>();
const TERM_MEMO_MAX = 200_000;

/** The term one word counts as: its stem, folded onto its synonym group's. */
export function termOf(word: string): string {
  let term = TERM_MEMO.get(word);
  if (term === undefined) {
    const stem = stemmer(word);
    term = CANONICAL.get(stem) ?? stem;
    if (TERM_MEMO.size >= TERM_MEMO_MAX) TERM_MEMO.clear();
    TERM_MEMO.set(word, term);
  }
  return term;
}

/** The terms of a text, in order, with repeats. */
export function terms(text: string): string[] {
  return words(text).map(termOf);
}

/**
 * For display: each term of a text and the first word that produced it, so the console
 * can say "both say: invoice, create" in the operator's words rather than stems.
 */
export function surfaceForms(text: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const word of words(text)) {
    const term = termOf(word);
    if (!forms.has(term)) forms.set(term, word);
  }
  return forms;
}
