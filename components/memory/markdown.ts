/**
 * A small Markdown reader for memory bodies: headings, paragraphs, lists, quotes, code
 * blocks, rules, and inline code, emphasis and links. It produces a tree the renderer
 * turns into React elements, so a body's text is always text: HTML in a memory shows as
 * written and never runs. Links keep only http(s) and mailto targets.
 */

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "br" };

export type Block =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "code"; lang: string; text: string }
  | { type: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { type: "quote"; children: Block[] }
  | { type: "hr" };

/** The link target if it is safe to follow from the console, else null. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return ["http:", "https:", "mailto:"].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

const FENCE = /^\s{0,3}(```|~~~)\s*([\w+-]*)\s*$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line);
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trim().startsWith(fence[1] as string))
        body.push(lines[i++] as string);
      i++; // the closing fence (or the end)
      blocks.push({ type: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: "hr" });
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: "heading", level, children: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string))
        quoted.push(QUOTE.exec(lines[i++] as string)?.[1] ?? "");
      blocks.push({ type: "quote", children: parseMarkdown(quoted.join("\n")) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = !bullet;
      const marker = isOrdered ? ORDERED : BULLET;
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i] as string;
        const item = marker.exec(current);
        if (item) {
          items.push([(isOrdered ? item[2] : item[1]) ?? ""]);
          i++;
          continue;
        }
        // An indented line continues the item above it (nested lists read as its text).
        if (/^\s{2,}\S/.test(current) && items.length) {
          items[items.length - 1]?.push(current.trim());
          i++;
          continue;
        }
        break;
      }
      blocks.push({
        type: "list",
        ordered: isOrdered,
        start: isOrdered ? Number(ordered?.[1] ?? 1) : 1,
        items: items.map((parts) => joinLines(parts)),
      });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && (lines[i] as string).trim() && !(paragraph.length && startsBlock(lines[i] as string)))
      paragraph.push((lines[i++] as string).trim());
    blocks.push({ type: "paragraph", children: joinLines(paragraph) });
  }
  return blocks;
}

/** Lines of one paragraph or item: a line break stays a line break (notes are written that way). */
function joinLines(lines: string[]): Inline[] {
  return lines.flatMap((l, n) => (n === 0 ? parseInline(l) : [{ type: "br" } as Inline, ...parseInline(l)]));
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/g;

function pushText(out: Inline[], text: string) {
  if (!text) return;
  // Bare URLs become links too.
  let last = 0;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const href = safeHref(m[0]);
    if (!href) continue;
    if (m.index > last) out.push({ type: "text", text: text.slice(last, m.index) });
    out.push({ type: "link", href, children: [{ type: "text", text: m[0] }] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ type: "text", text: text.slice(last) });
}

/** Finds the closing delimiter of an emphasis run opened at `from`. */
function closing(text: string, delim: string, from: number): number {
  let at = text.indexOf(delim, from);
  while (at !== -1) {
    const before = text[at - 1];
    const after = text[at + delim.length];
    // "_" closes only at a word's end, so snake_case names stay as written.
    const wordEnd = delim[0] !== "_" || !after || !/[\p{L}\p{N}]/u.test(after);
    if (before && before !== " " && wordEnd) return at;
    at = text.indexOf(delim, at + 1);
  }
  return -1;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = "";
  let i = 0;
  const flush = () => {
    pushText(out, plain);
    plain = "";
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === "\\" && i + 1 < text.length && /[\\`*_[\]()#>!-]/.test(text[i + 1] as string)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const run = /^`+/.exec(text.slice(i))?.[0] ?? "`";
      const end = text.indexOf(run, i + run.length);
      if (end !== -1) {
        flush();
        out.push({ type: "code", text: text.slice(i + run.length, end).trim() || text.slice(i + run.length, end) });
        i = end + run.length;
        continue;
      }
    }
    if (ch === "[") {
      const link = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(text.slice(i));
      if (link) {
        const href = safeHref(link[2] as string);
        flush();
        if (href) out.push({ type: "link", href, children: parseInline(link[1] as string) });
        // An unsafe target keeps its words, without the link.
        else out.push(...parseInline(link[1] as string));
        i += link[0].length;
        continue;
      }
    }
    if (ch === "*" || ch === "_") {
      const prevIsWord = i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1] as string);
      const strong = text[i + 1] === ch;
      const delim = strong ? ch + ch : ch;
      const next = text[i + delim.length];
      // "_" opens only at a word's start; neither opens before a space.
      if (next && next !== " " && !(ch === "_" && prevIsWord)) {
        const end = closing(text, delim, i + delim.length);
        if (end !== -1) {
          flush();
          const children = parseInline(text.slice(i + delim.length, end));
          out.push(strong ? { type: "strong", children } : { type: "em", children });
          i = end + delim.length;
          continue;
        }
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}
