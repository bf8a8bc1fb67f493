/**
 * `npm install` on a fresh clone is quiet: no dependency declares an engine the Node floor
 * (`engines`, `.nvmrc`) does not satisfy, and every dependency with an install script has a
 * decision in `allowScripts` (npm 11 skips undecided ones and ends the install with a list).
 * The three we have are denied: prisma's checks and engine download and esbuild's binary
 * check are not needed (decision 0055, and Prisma runs without its engines here).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// npm's own range rules, from the copy npm's tooling installs (it ships no types).
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { major: number; version: string } | null;
};
const root = import.meta.dirname;
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
type Entry = { version?: string; engines?: { node?: string }; os?: string[]; hasInstallScript?: boolean };
const entries = Object.entries(lock.packages as Record<string, Entry>).filter(([where]) => where !== "");
const nameOf = (where: string) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);

describe("npm install", () => {
  it("installs nothing whose engines the Node floor does not satisfy", () => {
    const floor = semver.minVersion(pkg.engines.node);
    expect(floor?.major).toBe(Number(readFileSync(path.join(root, ".nvmrc"), "utf8").trim()));
    // Packages for another platform are skipped by npm, engines and all.
    const onLinux = entries.filter(([, e]) => !e.os || e.os.includes("linux"));
    const refused = onLinux
      .filter(([, e]) => e.engines?.node && !semver.satisfies(floor?.version ?? "0.0.0", e.engines.node))
      .map(([where, e]) => `${nameOf(where)}@${e.version} wants node ${e.engines?.node}`);
    expect(refused).toEqual([]);
  });

  it("has an allowScripts decision for every dependency with an install script", () => {
    const undecided = entries
      .filter(([where, e]) => e.hasInstallScript && !(nameOf(where) in (pkg.allowScripts ?? {})))
      .map(([where]) => nameOf(where));
    expect(undecided).toEqual([]);
  });
});
