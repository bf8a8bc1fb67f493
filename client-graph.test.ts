import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * What a browser bundle may hold: everything a `"use client"` module reaches through value
 * imports (type-only imports are erased), followed file by file. Biome's noRestrictedImports
 * sees one file's own imports; this follows the graph, so a helper in components/ that imports
 * server/ is caught too, and so is any module that declares itself `server-only`.
 */
function clientGraphViolations(root: string): string[] {
  const sourceFiles = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return sourceFiles(rel);
      return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
    });
  const parsed = new Map<string, ts.SourceFile>();
  const parse = (rel: string) => {
    let file = parsed.get(rel);
    if (!file) {
      file = ts.createSourceFile(rel, readFileSync(path.join(root, rel), "utf8"), ts.ScriptTarget.Latest, true);
      parsed.set(rel, file);
    }
    return file;
  };
  const isClient = (rel: string) => {
    const first = parse(rel).statements[0];
    return (
      first !== undefined &&
      ts.isExpressionStatement(first) &&
      ts.isStringLiteral(first.expression) &&
      first.expression.text === "use client"
    );
  };
  const valueImports = (file: ts.SourceFile): string[] => {
    const out: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const typeOnly =
          clause?.isTypeOnly ||
          (clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly));
        if (!typeOnly) out.push(node.moduleSpecifier.text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        if (!node.isTypeOnly) out.push(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        out.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    return out;
  };
  const resolve = (from: string, specifier: string): string | null => {
    const base = specifier.startsWith("@/")
      ? specifier.slice(2)
      : specifier.startsWith(".")
        ? path.join(path.dirname(from), specifier)
        : null;
    if (base === null) return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
      try {
        if (statSync(path.join(root, candidate)).isFile()) return candidate;
      } catch {}
    }
    return null;
  };

  const entries = ["app", "components"].flatMap(sourceFiles).filter(isClient);
  const reachedFrom = new Map<string, string | null>(entries.map((e) => [e, null]));
  const queue = [...entries];
  const violations: string[] = [];
  const chain = (rel: string) => {
    const links = [rel];
    for (let at = reachedFrom.get(rel); at; at = reachedFrom.get(at)) links.unshift(at);
    return links.join(" → ");
  };
  for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
    if (rel.startsWith(`server${path.sep}`)) {
      violations.push(chain(rel));
      continue;
    }
    for (const specifier of valueImports(parse(rel))) {
      if (specifier === "server-only" || specifier.startsWith("node:")) {
        violations.push(`${chain(rel)} → ${specifier}`);
        continue;
      }
      const target = resolve(rel, specifier);
      if (target && /\.tsx?$/.test(target) && !reachedFrom.has(target)) {
        reachedFrom.set(target, rel);
        queue.push(target);
      }
    }
  }
  return violations;
}

describe("client components' import graph", () => {
  it("reaches no server module, nothing server-only and no Node built-in", () => {
    expect(clientGraphViolations(path.resolve(import.meta.dirname))).toEqual([]);
  }, 60_000); // parses every module the console reaches: seconds on a loaded machine

  it("has the database, the error class, the actor and the operations declare themselves server-only", () => {
    for (const file of ["server/db.ts", "server/errors.ts", "server/actor.ts", "server/domain/operation.ts"])
      expect(readFileSync(path.resolve(import.meta.dirname, file), "utf8"), file).toMatch(/^import "server-only";$/m);
  });

  it("finds a server module however far down, and lets type-only imports through", () => {
    const root = mkdtempSync(path.join(tmpdir(), "qm-client-graph-"));
    try {
      for (const dir of ["app", "components/ui", "server/domain", "universal"])
        mkdirSync(path.join(root, dir), { recursive: true });
      const write = (rel: string, text: string) => writeFileSync(path.join(root, rel), text);
      write(
        "components/ui/page.tsx",
        '"use client";\nimport { label } from "./labels";\nimport type { Db } from "@/server/db";\n',
      );
      write("components/ui/labels.ts", 'export { label } from "@/universal/words";\n');
      write("universal/words.ts", 'import { limit } from "../server/domain/limits";\nexport const label = limit;\n');
      write("server/domain/limits.ts", "export const limit = 1;\n");
      write("server/db.ts", 'import "server-only";\nexport type Db = object;\n');
      write(
        "components/ui/panel.tsx",
        '"use client";\nimport "server-only";\nimport { readFileSync } from "node:fs";\n',
      );
      write("app/page.tsx", 'import { Db } from "@/server/db";\n');
      expect(clientGraphViolations(root)).toEqual([
        `components${path.sep}ui${path.sep}panel.tsx → server-only`,
        `components${path.sep}ui${path.sep}panel.tsx → node:fs`,
        ["components/ui/page.tsx", "components/ui/labels.ts", "universal/words.ts", "server/domain/limits.ts"]
          .map((p) => p.split("/").join(path.sep))
          .join(" → "),
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
