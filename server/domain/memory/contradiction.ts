/**
 * Whether two near-duplicate memories disagree. Deduplication must never swallow a
 * contradiction ("the deploy target is staging" is not a duplicate of "… is production"),
 * so a merge is proposed only when one memory says nothing the other contradicts: no
 * different value for the same fact, no negation on one side only, no different numbers,
 * and every content word of one appears in the other (it adds to it, never replaces).
 */
import { termKey } from "./facts";
import { words } from "./text";

const NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "neither",
  "nor",
  "cannot",
  "without",
  "dont",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "can't",
  "shouldn't",
  "mustn't",
  "haven't",
  "hasn't",
]);

const FUNCTION_WORDS = new Set(
  "a an the and or but if then of to in on at by for with from as is are was were be been being it its this that these those there here we you they he she i me my our your their his her them us do does did so such very just also too than which who whom whose what when where why how all any some each every more most other into over under about after before again once only own same up down out off".split(
    " ",
  ),
);

/** A light stem for comparing wordings: "installs", "installing", "installed" → "install". */
function stem(word: string): string {
  return word
    .replace(/['’]s$/, "")
    .replace(/(ies)$/, "y")
    .replace(/(ing|ed|es|s|ly)$/, "")
    .replace(/(.)\1$/, "$1");
}

function contentStems(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => !FUNCTION_WORDS.has(w) && !NEGATIONS.has(w) && !/^\d/.test(w))
      .map(stem)
      .filter((w) => w.length > 1),
  );
}

const numbers = (text: string) => new Set(text.match(/\d+(?:[.,]\d+)*/g) ?? []);
const negations = (text: string) => words(text).filter((w) => NEGATIONS.has(w) || w.endsWith("n't")).length;

export interface StatedFact {
  subject: string;
  predicate: string;
  value: string;
}

/** Why two memories contradict each other, or null when one only repeats or adds to the other. */
export function contradiction(
  a: string,
  b: string,
  factsA: StatedFact[] = [],
  factsB: StatedFact[] = [],
): string | null {
  for (const fa of factsA) {
    const fb = factsB.find(
      (f) => termKey(f.subject) === termKey(fa.subject) && termKey(f.predicate) === termKey(fa.predicate),
    );
    if (fb && termKey(fb.value) !== termKey(fa.value))
      return `They give different values for "${fa.subject} ${fa.predicate}": "${fa.value}" and "${fb.value}".`;
  }
  if (negations(a) > 0 !== negations(b) > 0) return "One negates what the other states.";
  const na = numbers(a);
  const nb = numbers(b);
  if (na.size && nb.size && ([...na].some((n) => !nb.has(n)) || [...nb].some((n) => !na.has(n))))
    return `They give different numbers (${[...na].join(", ")} and ${[...nb].join(", ")}).`;
  const sa = contentStems(a);
  const sb = contentStems(b);
  const onlyA = [...sa].filter((w) => !sb.has(w));
  const onlyB = [...sb].filter((w) => !sa.has(w));
  if (onlyA.length && onlyB.length)
    return `Each says something the other does not ("${onlyA.slice(0, 3).join(", ")}" against "${onlyB.slice(0, 3).join(", ")}"): possibly a different value.`;
  return null;
}

/** The words each body has that the other lacks, for a reviewer's side-by-side view. */
export function differences(a: string, b: string): { onlyInFirst: string[]; onlyInSecond: string[] } {
  const sa = new Set(words(a));
  const sb = new Set(words(b));
  return {
    onlyInFirst: [...sa].filter((w) => !sb.has(w)).slice(0, 50),
    onlyInSecond: [...sb].filter((w) => !sa.has(w)).slice(0, 50),
  };
}
