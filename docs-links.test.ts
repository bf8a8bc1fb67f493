/**
 * Everything a reader needs is inside the repository: a clone read offline, or on a mirror
 * without its neighbours, must have no link that leads out of it (a web address, or a
 * relative path above the repository's root such as the spec beside it) and none that is
 * broken. Code blocks and code spans are examples, not links, so they are not read.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { outsideLinks } from "./scripts/markdown-links";

const ROOT = import.meta.dirname;
const SKIP = new Set(["node_modules", "dist", "e2e-artifacts", "test-results", "playwright-report"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || SKIP.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

describe("README and docs", () => {
  const files = markdownFiles(ROOT);

  it("are found: the README, the overview and the docs folder", () => {
    const names = files.map((f) => path.relative(ROOT, f));
    expect(names).toContain("README.md");
    expect(names).toContain("docs/overview.md");
    expect(names).toContain("sdk/README.md");
  });

  it("link nowhere outside the repository, and every link inside it resolves", () => {
    const problems = files.flatMap((file) =>
      outsideLinks(readFileSync(file, "utf8"), {
        root: ROOT,
        dir: path.dirname(file),
        exists: existsSync,
      }).map((p) => `${path.relative(ROOT, file)}:${p.line}: ${p.target} (${p.why})`),
    );
    expect(problems).toEqual([]);
  });

  it("never send a reader to the spec beside the repository", () => {
    const mentions = files.filter((file) => /shared\/spec|PRODUCT\.md/.test(readFileSync(file, "utf8")));
    expect(mentions.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("README says where the demo MCP server listens and that some demo states are timed", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("`PORT + 1`");
    expect(readme).toMatch(/demo states are timed/i);
    expect(readme).toContain("docs/overview.md");
  });
});
