import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureSchemas } from "./schema-measure";

// The obvious recursive definition, to check the iterative, early-stopping one against.
function reference(value: unknown, level = 1): { depth: number; nodes: number } {
  if (value === null || typeof value !== "object") return { depth: level, nodes: 1 };
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.reduce<{ depth: number; nodes: number }>(
    (acc, child) => {
      const r = reference(child, level + 1);
      return { depth: Math.max(acc.depth, r.depth), nodes: acc.nodes + r.nodes };
    },
    { depth: level, nodes: 1 },
  );
}

describe("schema depth and node counter", () => {
  it("agrees with the recursive definition on arbitrary JSON, across several schemas", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 8 }), { minLength: 1, maxLength: 3 }), (schemas) => {
        const expected = schemas.map((s) => reference(s));
        const measured = measureSchemas(schemas);
        expect(measured.exceeded).toBeUndefined();
        expect(measured.nodes).toBe(expected.reduce((n, e) => n + e.nodes, 0));
        expect(measured.depth).toBe(Math.max(...expected.map((e) => e.depth)));
      }),
    );
  });

  it("reports a limit as exceeded exactly when the true value passes it", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 10 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 200 }),
        (schema, depth, nodes) => {
          const truth = reference(schema);
          const measured = measureSchemas([schema], { depth, nodes });
          expect(measured.exceeded !== undefined).toBe(truth.depth > depth || truth.nodes > nodes);
        },
      ),
    );
  });

  it("ignores an absent output schema and handles a 10,000-level schema without recursion", () => {
    expect(measureSchemas([{ type: "object" }, undefined])).toEqual({ depth: 2, nodes: 2 });
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(measureSchemas([deep], { depth: 64, nodes: 100_000 })).toMatchObject({ exceeded: "depth", depth: 65 });
  });
});
