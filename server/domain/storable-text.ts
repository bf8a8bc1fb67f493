/**
 * Text PostgreSQL cannot store: a NUL character (refused in `text` and `jsonb`) and a lone
 * UTF-16 surrogate (not valid UTF-8). Checked once, wherever input enters the domain, so
 * such text is a clear refusal naming its field, never a failed write.
 */

/** The path and reason of the first string in `value` the database cannot store, or null. */
export function unstorableText(value: unknown): { path: string; reason: string } | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === "string") {
      const reason = textReason(v);
      if (reason) return { path: path || "input", reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v && typeof v === "object" && !(v instanceof Date)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        const keyReason = textReason(k);
        if (keyReason) return { path: path || "input", reason: `a key ${keyReason}` };
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

/**
 * The text with every NUL and lone surrogate replaced by U+FFFD: for copies Quartermaster
 * keeps of what others sent (the call log's Tool names and payloads), where refusing is not
 * an option and one such row must not stop the rest from being written.
 */
export function storableCopy(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATES, "\uFFFD");
}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textReason(s: string): string | null {
  if (s.includes("\u0000")) return "contains a NUL character (U+0000), which cannot be stored";
  if (LONE_SURROGATE.test(s))
    return "contains a lone UTF-16 surrogate (not valid Unicode text), which cannot be stored";
  return null;
}
