import { describe, expect, it } from "vitest";
import { evaluateCompatibility } from "./compatibility";

const obj = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { query: { type: "string" } },
  ...extra,
});

describe("model compatibility", () => {
  it("accepts an object schema, with nested __ names allowed", () => {
    expect(evaluateCompatibility(obj())).toEqual({ state: "compatible", reason: null });
    expect(
      evaluateCompatibility({
        type: "object",
        properties: { filter: { type: "object", properties: { __inner: { type: "string" } } } },
      }).state,
    ).toBe("compatible");
    expect(
      evaluateCompatibility({ type: "object", $defs: { a: {} }, properties: { x: { $ref: "#/$defs/a" } } }).state,
    ).toBe("compatible");
  });

  it("marks a top-level __ name in properties or required Schema unsupported, without naming it", () => {
    for (const schema of [
      obj({ properties: { __secret_arg: { type: "string" } } }),
      obj({ required: ["__secret_arg"] }),
    ]) {
      const result = evaluateCompatibility(schema);
      expect(result.state).toBe("schema_unsupported");
      expect(result.reason).toContain('"__"');
      expect(result.reason).not.toContain("__secret_arg");
    }
  });

  it("names the further rules a model API forces", () => {
    expect(evaluateCompatibility({ type: "string" }).state).toBe("input_not_object");
    expect(evaluateCompatibility({ properties: {} }).state).toBe("input_not_object");
    expect(evaluateCompatibility(obj({ properties: { x: { $ref: "https://example.com/s.json" } } })).state).toBe(
      "external_ref",
    );
    expect(evaluateCompatibility(obj({ anyOf: [{}, {}] })).state).toBe("top_level_combinator");
    const wide = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`a${i}`, { type: "string" }]));
    expect(evaluateCompatibility({ type: "object", properties: wide }).state).toBe("too_many_arguments");
    const fits = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`a${i}`, { type: "string" }]));
    expect(evaluateCompatibility({ type: "object", properties: fits }).state).toBe("compatible");
  });
});
