/**
 * docs/api.md is the operator API's reference for automation: every procedure the
 * console uses, every catalog failure code, every compatibility state and every error
 * code must be in it, so a new one cannot ship undocumented.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPATIBILITY_STATES } from "../domain/catalog/compatibility";
import { CHECK_FAILURE_CODES, REQUEST_ERROR_CODES } from "../errors";
import { appRouter } from "./root";

const doc = readFileSync(path.join(import.meta.dirname, "../../docs/api.md"), "utf8");
const documented = (name: string) => doc.includes(`\`${name}\``);

describe("docs/api.md", () => {
  it("documents every tRPC procedure", () => {
    const procedures = Object.keys(appRouter._def.procedures);
    expect(procedures.length).toBeGreaterThan(30);
    expect(procedures.filter((p) => !documented(p))).toEqual([]);
  });

  it("lists every catalog failure code, compatibility state and error code", () => {
    const names = [...Object.keys(CHECK_FAILURE_CODES), ...COMPATIBILITY_STATES, ...Object.keys(REQUEST_ERROR_CODES)];
    expect(names.filter((n) => !documented(n))).toEqual([]);
  });
});
