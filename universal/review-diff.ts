/**
 * What a reviewer of a changed Tool definition reads (Tools → Review): a word diff of the
 * description, a line diff of each schema, and the added text that reads like instructions
 * to the model (an imperative sentence, a URL, a file path, "ignore previous") flagged.
 * Pure and browser-safe: the console renders what the server computed, and tests call it.
 */

export type DiffPart = { op: "same" | "added" | "removed"; text: string };

/** Past this many cells the diff is coarse (common start and end, the rest replaced). */
const MOST_CELLS = 4_000_000;

function diffTokens(a: string[], b: string[]): DiffPart[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffPart["op"], text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push("same", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MOST_CELLS) {
    push("removed", midA.join(""));
    push("added", midB.join(""));
  } else {
    // Longest common subsequence, walked from the start.
    const n = midA.length;
    const m = midB.length;
    const table = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        table[i * (m + 1) + j] =
          midA[i] === midB[j]
            ? (table[(i + 1) * (m + 1) + j + 1] ?? 0) + 1
            : Math.max(table[(i + 1) * (m + 1) + j] ?? 0, table[i * (m + 1) + j + 1] ?? 0);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        push("same", midA[i] as string);
        i++;
        j++;
      } else if ((table[(i + 1) * (m + 1) + j] ?? 0) >= (table[i * (m + 1) + j + 1] ?? 0))
        push("removed", midA[i++] as string);
      else push("added", midB[j++] as string);
    }
    while (i < n) push("removed", midA[i++] as string);
    while (j < m) push("added", midB[j++] as string);
  }
  push("same", a.slice(endA).join(""));
  return parts;
}

/** Words and the space between them, so a diff keeps the text exactly. */
export function diffWords(before: string, after: string): DiffPart[] {
  const split = (s: string) => s.match(/\s+|[^\s]+/g) ?? [];
  return diffTokens(split(before), split(after));
}

/** Lines (each with its line break). */
export function diffLines(before: string, after: string): DiffPart[] {
  const split = (s: string) => s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return diffTokens(split(before), split(after));
}

/** A JSON value as a reviewer reads it: indented, keys sorted (as stored). */
export function prettyJson(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value, null, 2);
}

export type FlagKind = "ignore_previous" | "imperative" | "url" | "file_path";

export interface ReviewFlag {
  kind: FlagKind;
  /** The added text that raised the flag. */
  text: string;
  field: string;
}

export const FLAG_LABELS: Record<FlagKind, string> = {
  ignore_previous: "Overrides earlier instructions",
  imperative: "Instruction to the model",
  url: "URL",
  file_path: "File path",
};

const IGNORE_PREVIOUS =
  /\b(ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(previous|prior|above|earlier|all|other|system)\b[^.!?\n]{0,20}\b(instructions?|prompts?|rules?|messages?|context)\b/i;
// An imperative sentence addressed to the model: it opens with a command, or names the model as "you".
const IMPERATIVE =
  /^(?:<?\s*(?:important|note|system|attention)\s*>?\s*[:!-]?\s*)?(?:please\s+)?(?:before|after|always|never|first|do not|don't|you must|you should|you need to|make sure|ensure|remember to|be sure to|read|include|send|fetch|open|call|run|execute|output|print|reveal|copy|upload|post|tell|instead|pass|append|attach|forward|email|delete|write|save|list|return)\b/i;
const ADDRESSED =
  /\b(you|your|the (?:assistant|model|ai|agent|llm))\b[^.!?\n]{0,60}\b(must|should|need to|have to|will|are required to)\b/i;
const URL_RE = /\b(?:https?|ftp|file):\/\/[^\s"'<>)]+|\bwww\.[^\s"'<>)]+/gi;
const PATH_RE =
  /(?:~\/[\w.\-/]*|(?:^|[\s"'(])\/(?:etc|home|root|var|usr|tmp|proc|Users)\/[\w.\-/]*|\b[A-Za-z]:\\[\w.\-\\]+|\.ssh\b[\w.\-/]*|\bid_(?:rsa|ed25519|ecdsa)\b|\.env\b|\.aws\/credentials)/g;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Flags in `after`'s text that `before` did not have (each sentence judged on its own). */
export function flagInstructions(before: string, after: string, field: string): ReviewFlag[] {
  const old = new Set(sentences(before));
  const flags: ReviewFlag[] = [];
  for (const s of sentences(after)) {
    if (old.has(s)) continue;
    if (IGNORE_PREVIOUS.test(s)) flags.push({ kind: "ignore_previous", text: s, field });
    else if (IMPERATIVE.test(s) || ADDRESSED.test(s)) flags.push({ kind: "imperative", text: s, field });
    for (const url of s.match(URL_RE) ?? []) if (!before.includes(url)) flags.push({ kind: "url", text: url, field });
    for (const raw of s.match(PATH_RE) ?? []) {
      const path = raw.trim().replace(/^["'(]/, "");
      if (path && !before.includes(path)) flags.push({ kind: "file_path", text: path, field });
    }
  }
  return flags;
}

/** Every string in a JSON value (descriptions, titles, defaults, enum values): where schema text hides instructions. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
  return out;
}
