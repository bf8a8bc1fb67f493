/**
 * docs/mcp.md is what agent developers read: every code a call can fail with and every
 * built-in tool must be in it, so a new one cannot ship undocumented; the built-in tools
 * section is generated from the registry and must match it (npm run docs:mcp rewrites it).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_IN_TOOL_NAMES } from "../domain/agent-tools/built-ins";
import { TOOL_CALL_FAILURE_CODES } from "../errors";
import { builtInToolsMarkdown, foldTables, GENERATED_END, GENERATED_START } from "./tools/docs";
import { builtInTools } from "./tools/registry";

const doc = readFileSync(path.join(import.meta.dirname, "../../docs/mcp.md"), "utf8");
const documented = (name: string) => doc.includes(`\`${name}\``);

describe("docs/mcp.md", () => {
  it("lists every Tool Call failure code and every built-in tool name", () => {
    const names = [...Object.keys(TOOL_CALL_FAILURE_CODES), ...BUILT_IN_TOOL_NAMES];
    expect(names.filter((n) => !documented(n))).toEqual([]);
  });

  it("has the built-in tools section the registry generates: every tool, argument and error code (npm run docs:mcp)", () => {
    const start = doc.indexOf(GENERATED_START);
    const end = doc.indexOf(GENERATED_END);
    expect(start).toBeGreaterThan(-1);
    // Compared with table padding folded: the formatter (npm run format) aligns the tables.
    expect(foldTables(doc.slice(start, end + GENERATED_END.length))).toBe(foldTables(builtInToolsMarkdown()));
    for (const tool of builtInTools) {
      for (const argument of Object.keys(tool.inputSchema.shape))
        expect(doc).toMatch(new RegExp(`\\| \`${argument}\` +\\|`));
      for (const code of tool.errors) expect(documented(code), code).toBe(true);
    }
  });
});
