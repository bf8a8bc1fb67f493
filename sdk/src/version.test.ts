import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SDK_PACKAGE, SDK_VERSION } from "./version.ts";

it("sends the package's own name and version in its registration and User-Agent", () => {
  const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  expect(SDK_VERSION).toBe(pkg.version);
  expect(SDK_PACKAGE).toBe(pkg.name);
});
