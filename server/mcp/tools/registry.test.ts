import { describe, expect, it } from "vitest";
import { BUILT_IN_TOOL_NAMES } from "../../domain/agent-tools/built-ins";
import { evaluateCompatibility } from "../../domain/catalog/compatibility";
import { ERROR_CODES } from "../../errors";
import { MODEL_FACING_NAME_PATTERN } from "../../limits";
import { listedTool } from "./define";
import { builtInTools } from "./registry";

describe("the built-in tool registry", () => {
  it("is the list of names a catalog Tool may never take", () => {
    expect(builtInTools.map((t) => t.name).sort()).toEqual([...BUILT_IN_TOOL_NAMES].sort());
  });

  it("offers each tool as models accept it: a valid name, an object input schema a model API takes, a description", () => {
    for (const tool of builtInTools) {
      const listed = listedTool(tool);
      expect(tool.name).toMatch(MODEL_FACING_NAME_PATTERN);
      expect(evaluateCompatibility(listed.inputSchema), tool.name).toEqual({ state: "compatible", reason: null });
      // call_tool answers with the called Tool's result, so it declares none.
      if (tool.name !== "call_tool") expect(listed.outputSchema?.type, tool.name).toBe("object");
      else expect(listed.outputSchema).toBeUndefined();
      expect(tool.description.length, tool.name).toBeGreaterThan(60);
      // Every argument says what it is for: models choose arguments by their descriptions.
      const properties = listed.inputSchema.properties as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties))
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
    }
  });

  it("documents only error codes that exist", () => {
    for (const tool of builtInTools)
      for (const code of tool.errors) expect(code === "INVALID_ARGUMENTS" || code in ERROR_CODES, code).toBe(true);
  });
});
