import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildNeeded, elapsedInWords } from "./build-if-needed";

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

  it("says how long it has been going in words", () => {
    expect(elapsedInWords(20_000)).toBe("20 s");
    expect(elapsedInWords(80_000)).toBe("1 min 20 s");
    expect(elapsedInWords(240_000)).toBe("4 min");
  });
});
