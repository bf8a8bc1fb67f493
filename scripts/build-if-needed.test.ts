import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfNeededWithProgress, buildNeeded, elapsedInWords } from "./build-if-needed";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "qm-build-"));
  dirs.push(root);
  mkdirSync(path.join(root, "app"));
  writeFileSync(path.join(root, "app", "page.tsx"), "export default 1;");
  return root;
}

describe("npm start's build", () => {
  it("builds when there is none, again after a source changes, and not otherwise", () => {
    const root = project();
    expect(buildNeeded(root)).toBe("none yet");
    mkdirSync(path.join(root, ".next"));
    writeFileSync(path.join(root, ".next", "BUILD_ID"), "x");
    expect(buildNeeded(root)).toBeNull();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "app", "page.tsx"), later, later);
    expect(buildNeeded(root)).toBe("sources changed");
  });

  it("two starts at once in one folder run one build; the second waits for it and finds it current", async () => {
    const root = project();
    // Stands in for next build: slow enough that the second start arrives while it runs.
    const bin = path.join(root, "node_modules", "next", "dist", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      path.join(bin, "next"),
      `const fs = require("node:fs"); const p = require("node:path");
       fs.appendFileSync(p.join(${JSON.stringify(root)}, "builds.log"), "start\\n");
       setTimeout(() => { fs.mkdirSync(p.join(${JSON.stringify(root)}, ".next"), { recursive: true });
         fs.writeFileSync(p.join(${JSON.stringify(root)}, ".next", "BUILD_ID"), "x");
         fs.appendFileSync(p.join(${JSON.stringify(root)}, "builds.log"), "end\\n"); }, 1500);`,
    );
    await Promise.all([buildIfNeededWithProgress(root), buildIfNeededWithProgress(root)]);
    expect(readFileSync(path.join(root, "builds.log"), "utf8")).toBe("start\nend\n");
    expect(buildNeeded(root)).toBeNull();
  });

  it("says how long it has been going in words", () => {
    expect(elapsedInWords(20_000)).toBe("20 s");
    expect(elapsedInWords(80_000)).toBe("1 min 20 s");
    expect(elapsedInWords(240_000)).toBe("4 min");
  });
});
