import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SDK_VERSION } from "./version.ts";

it("sends the package's own version in its User-Agent", () => {
  const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    version: string;
  };
  expect(SDK_VERSION).toBe(pkg.version);
});
