/**
 * JSON Schema in the forms every major model API's converter takes. zod writes a nullable
 * primitive as `"type": ["string", "null"]`, which several converters (and the MCP
 * Inspector's `--strict` check) refuse; `anyOf` with a `{ "type": "null" }` branch means
 * the same and is taken everywhere.
 */
import { rewriteSchema, type SchemaNode } from "../../domain/schema-nodes";

/** Keywords about the value as a whole, which stay beside the `anyOf` rather than in a branch. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$id",
  "$anchor",
]);

function withoutTypeArray(node: SchemaNode): SchemaNode {
  if (!Array.isArray(node.type)) return node;
  const types = node.type as string[];
  if (types.length === 1) return { ...node, type: types[0] };
  const outer: SchemaNode = {};
  const rules: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") continue;
    if (ANNOTATIONS.has(key)) outer[key] = value;
    else rules[key] = value;
  }
  // Rules of one type are ignored by JSON Schema for values of another, so each branch may carry them all.
  const branches = types.map((type) => (type === "null" ? { type } : { type, ...rules }));
  return { ...outer, anyOf: branches };
}

/** `schema` with every `type` array (at any depth) written as `anyOf`; the value it admits is unchanged. */
export function portableSchema<T>(schema: T): T {
  return rewriteSchema(schema, withoutTypeArray) as T;
}
