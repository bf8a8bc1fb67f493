/**
 * Highlighting what one side of a proposal says that the other does not. The server lists
 * those words (proposals.list `differences`, lower-cased words as its near-duplicate check
 * splits them); this finds them in a body so a reviewer sees them in place.
 */

// The same word pattern as the server's `words()` (server/domain/memory/text.ts).
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export interface Segment {
  text: string;
  changed: boolean;
}

/** The body cut into runs of text, the listed words marked `changed`. */
export function highlightWords(body: string, words: readonly string[]): Segment[] {
  if (!words.length) return [{ text: body, changed: false }];
  const wanted = new Set(words.map((w) => w.toLowerCase()));
  const out: Segment[] = [];
  let last = 0;
  for (const m of body.matchAll(WORD)) {
    if (!wanted.has(m[0].toLowerCase())) continue;
    if (m.index > last) out.push({ text: body.slice(last, m.index), changed: false });
    // Adjacent changed words read as one highlighted phrase.
    const previous = out[out.length - 1];
    if (previous?.changed && m.index === last) previous.text += m[0];
    else out.push({ text: m[0], changed: true });
    last = m.index + m[0].length;
  }
  if (last < body.length) out.push({ text: body.slice(last), changed: false });
  return out;
}
