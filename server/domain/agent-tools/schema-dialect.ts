/**
 * Published input schemas in the dialect the argument check compiles (JSON Schema 2020-12).
 * Servers still publish draft-04's boolean bounds (`"minimum": 0, "exclusiveMinimum": true`),
 * which 2020-12 writes as a number (`"exclusiveMinimum": 0`); a validator refuses to compile
 * the old form, and then no argument of the Tool would be checked at all.
 */
import { rewriteSchema, type SchemaNode } from "../schema-nodes";

const BOUNDS = [
  ["exclusiveMinimum", "minimum"],
  ["exclusiveMaximum", "maximum"],
] as const;

function boundsIn2020(node: SchemaNode): SchemaNode {
  if (!BOUNDS.some(([flag]) => typeof node[flag] === "boolean")) return node;
  const out = { ...node };
  for (const [flag, bound] of BOUNDS) {
    if (typeof out[flag] !== "boolean") continue;
    const exclusive = out[flag];
    delete out[flag];
    if (exclusive && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    }
  }
  return out;
}

/** `schema` with draft-04 boolean exclusive bounds (at any depth) in their 2020-12 form. */
export function in2020Dialect(schema: unknown): unknown {
  return rewriteSchema(schema, boundsIn2020);
}
