import { describe, expect, it } from "vitest";
import { argumentsFrom, argumentsFromJson, formFields } from "./schema-form";

const schema = {
  type: "object",
  properties: {
    note: { type: "string", description: "Free text" },
    mode: { type: "string", enum: ["fast", "thorough"] },
    limit: { type: "integer", default: 10 },
    ratio: { type: "number" },
    dryRun: { type: "boolean" },
    filter: { type: "object", properties: { tag: { type: "string" } } },
    id: { type: ["string", "null"] },
  },
  required: ["mode", "id"],
};

describe("a form from an input schema", () => {
  it("puts required fields first and picks a control per type, JSON for the rest", () => {
    const fields = formFields(schema);
    expect(fields?.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["mode", "enum", true],
      ["id", "text", true],
      ["note", "text", false],
      ["limit", "integer", false],
      ["ratio", "number", false],
      ["dryRun", "boolean", false],
      ["filter", "json", false],
    ]);
    expect(fields?.[0]?.options).toEqual(["fast", "thorough"]);
    expect(fields?.find((f) => f.name === "limit")?.hint).toBe("10");
    expect(formFields({ type: "string" })).toBeNull();
  });

  it("builds the arguments, leaving empty optional fields out and naming each problem", () => {
    const fields = formFields(schema) ?? [];
    expect(
      argumentsFrom(fields, { mode: "fast", id: "A-1", limit: "5", dryRun: "true", filter: '{"tag":"x"}', note: "" }),
    ).toEqual({ arguments: { mode: "fast", id: "A-1", limit: 5, dryRun: true, filter: { tag: "x" } }, problems: {} });
    const bad = argumentsFrom(fields, { limit: "1.5", ratio: "abc", filter: "{" });
    expect(Object.keys(bad.problems).sort()).toEqual(["filter", "id", "limit", "mode", "ratio"]);
    expect(bad.problems.limit).toBe("Enter a whole number.");
  });

  it("takes the whole object from the JSON editor", () => {
    expect(argumentsFromJson('{"a":1}')).toEqual({ arguments: { a: 1 } });
    expect(argumentsFromJson("[1]").problem).toContain("JSON object");
    expect(argumentsFromJson("{").problem).toContain("Not valid JSON");
    expect(argumentsFromJson("")).toEqual({ arguments: {} });
  });
});
