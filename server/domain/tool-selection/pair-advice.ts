/**
 * What an operator should do about two Tools that read alike: worded for the case at hand,
 * since "rename it" is the wrong advice for one Tool published twice.
 */
import { terms } from "./text";

export type ConfusableLevel = "high" | "medium";

/** From this similarity a model is likely to pick either of the two. */
const HIGH = 0.75;

export function levelOf(similarity: number): ConfusableLevel {
  return similarity >= HIGH ? "high" : "medium";
}

interface PairSide {
  nativeName: string;
  description: string;
  sourceName: string;
}

const sameWords = (a: string, b: string) => terms(a).sort().join(" ") === terms(b).sort().join(" ");

export function suggestFix(a: PairSide, b: PairSide, shared: string[], similarity: number): string {
  const sameDescription = a.description.trim() !== "" && sameWords(a.description, b.description);
  const sameName = sameWords(a.nativeName, b.nativeName);
  if (a.sourceName !== b.sourceName && (sameDescription || (sameName && levelOf(similarity) === "high")))
    return `Probably the same Tool from two Sources (${a.sourceName}, ${b.sourceName}): if they do the same thing, unassign one Source or have its publisher drop the Tool; if not, rename one and describe what each does that the other does not.`;
  if (sameDescription)
    return "Both descriptions say the same thing: describe what each does that the other does not, or retire one.";
  if (sameName) return "The names say the same thing: rename one to what sets it apart, and describe the difference.";
  const words = shared.slice(0, 3).map((w) => `"${w}"`);
  return `Rename or describe the difference: both lean on ${words.join(", ") || "the same words"}; say in each description when to use it rather than the other.`;
}
