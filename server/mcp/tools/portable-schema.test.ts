import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listedTool } from "./define";
import { portableSchema } from "./portable-schema";
import { builtInTools } from "./registry";

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Every `type` member under `schema`, with where it is. */
function typeArrays(schema: unknown, at = "#"): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => typeArrays(s, `${at}/${i}`));
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "type" && Array.isArray(value) ? [at] : typeArrays(value, `${at}/${key}`),
  );
}

describe("portable schemas", () => {
  it("no built-in's listed input or output schema has a type array (the Inspector's --strict warning)", () => {
    for (const tool of builtInTools) {
      const listed = listedTool(tool);
      expect(typeArrays(listed.inputSchema), `${tool.name} input`).toEqual([]);
      expect(typeArrays(listed.outputSchema), `${tool.name} output`).toEqual([]);
    }
  });

  it("writes a nullable field as anyOf with null, keeping its description outside and its rules inside", () => {
    const schema = {
      type: "object",
      properties: {
        body: { type: ["string", "null"], description: "Null once erased.", maxLength: 3 },
        type: { type: "string" },
        when: { type: ["string", "null"], format: "date-time" },
      },
      required: ["body", "type"],
    };
    expect(portableSchema(schema)).toEqual({
      type: "object",
      properties: {
        body: { description: "Null once erased.", anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] },
        type: { type: "string" },
        when: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
      },
      required: ["body", "type"],
    });
    // Values are never rewritten: an enum or default that holds an array stays as it is.
    expect(portableSchema({ enum: [["a", "b"]], default: { type: ["x", "y"] } })).toEqual({
      enum: [["a", "b"]],
      default: { type: ["x", "y"] },
    });
  });

  it("admits exactly the values the original admitted", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const schemas = [
      { type: ["string", "null"], minLength: 2 },
      { type: ["integer", "string"], minimum: 3, pattern: "^a" },
      { type: "object", properties: { n: { type: ["number", "null"], maximum: 5 } }, required: ["n"] },
      { type: "array", items: { type: ["boolean", "null"] }, maxItems: 2 },
      // The built-ins' schemas as zod writes them, before they are made portable.
      ...builtInTools.flatMap((t) =>
        t.outputSchema ? [z.toJSONSchema(t.outputSchema, { io: "output", target: "draft-2020-12" })] : [],
      ),
    ];
    for (const schema of schemas) {
      const before = ajv.compile(schema);
      const after = ajv.compile(portableSchema(schema));
      fc.assert(
        fc.property(fc.jsonValue(), (value) => before(value) === after(value)),
        { numRuns: 300 },
      );
    }
  });
});
