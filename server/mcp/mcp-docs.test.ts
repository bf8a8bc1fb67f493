/**
 * docs/mcp.md is what agent developers read: every code a proxied call can fail with and
 * every built-in tool name must be in it, so a new one cannot ship undocumented.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_IN_TOOL_NAMES } from "../domain/agent-tools/built-ins";
import { TOOL_CALL_FAILURE_CODES } from "../domain/agent-tools/failures";

const doc = readFileSync(path.join(import.meta.dirname, "../../docs/mcp.md"), "utf8");
const documented = (name: string) => doc.includes(`\`${name}\``);

describe("docs/mcp.md", () => {
  it("lists every Tool Call failure code and every built-in tool name", () => {
    const names = [...Object.keys(TOOL_CALL_FAILURE_CODES), ...BUILT_IN_TOOL_NAMES];
    expect(names.filter((n) => !documented(n))).toEqual([]);
  });
});
