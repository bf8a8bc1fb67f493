import path from "node:path";

export interface LinkProblem {
  line: number;
  target: string;
  why: "web address" | "outside the repository" | "missing file";
}

interface Where {
  /** The repository's root: no link may resolve above it. */
  root: string;
  /** The folder of the Markdown file, which relative links start from. */
  dir: string;
  exists: (file: string) => boolean;
}

/** Code is example text: blank it (keeping line breaks, so line numbers stay true). */
function withoutCode(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank).replace(/(`+)[^`\n][\s\S]*?\1/g, blank);
}

/**
 * Every link in a Markdown text that leaves the repository or points at nothing: inline
 * links and images, reference definitions, autolinks and bare web addresses in prose.
 */
export function outsideLinks(markdown: string, where: Where): LinkProblem[] {
  const text = withoutCode(markdown);
  const found: { index: number; target: string }[] = [];
  const collect = (re: RegExp) => {
    for (const m of text.matchAll(re)) found.push({ index: m.index ?? 0, target: m[1] ?? "" });
  };
  collect(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g);
  collect(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm);
  collect(/<((?:[a-z][a-z0-9+.-]*):[^>\s]+)>/gi);
  // A bare address, not already inside one of the link forms above.
  collect(/(?<![(<:/\w])((?:https?|ftp):\/\/[^\s)>\]]+)/gi);

  const problems: LinkProblem[] = [];
  // A reference definition's address also reads as a bare one: count each once per line.
  const seen = new Set<string>();
  for (const { index, target } of found.sort((a, b) => a.index - b.index)) {
    const line = text.slice(0, index).split("\n").length;
    if (seen.has(`${line} ${target}`)) continue;
    seen.add(`${line} ${target}`);
    if (target.startsWith("#")) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      problems.push({ line, target, why: "web address" });
      continue;
    }
    const file = path.resolve(where.dir, decodeURIComponent(target.split("#")[0] ?? ""));
    const fromRoot = path.relative(where.root, file);
    if (fromRoot.startsWith("..") || path.isAbsolute(fromRoot))
      problems.push({ line, target, why: "outside the repository" });
    else if (!where.exists(file)) problems.push({ line, target, why: "missing file" });
  }
  return problems;
}
