import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, utf8Bytes } from "./canonical";
import { modelFacingBytes, modelFacingDefinition, validateToolDefinition } from "./validate-tool";

// Tools as a server could publish them: any JSON in the schema, any text in names and descriptions.
const arbitraryTool = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 40, unit: "binary" }),
    description: fc.string({ unit: "binary" }),
    title: fc.string(),
    inputSchema: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }),
    annotations: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  },
  { requiredKeys: ["name", "inputSchema"] },
);

describe("a validated Tool", () => {
  it("stores the canonical JSON of what the server sent, with the input schema serialized only once", () => {
    fc.assert(
      fc.property(arbitraryTool, (raw) => {
        const tool = validateToolDefinition(raw, { index: 0 });
        expect(tool.canonical).toBe(canonicalJson(raw));
        expect(tool.inputSchemaBytes).toBe(utf8Bytes(canonicalJson(raw.inputSchema)));
      }),
    );
  });

  it("sizes its model-facing definition exactly as that definition serializes, for any name", () => {
    fc.assert(
      fc.property(arbitraryTool, fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/), (raw, name) => {
        const tool = validateToolDefinition(raw, { index: 0 });
        expect(modelFacingBytes(tool, name)).toBe(utf8Bytes(modelFacingDefinition(tool, name)));
      }),
    );
  });
});
