/**
 * Rewrites a JSON Schema bottom-up, one schema object at a time, for the places that turn a
 * published or generated schema into a form some reader takes. Members that hold values
 * rather than schemas (`enum`, `const`, `default`, `examples`) are never rewritten.
 */

export type SchemaNode = Record<string, unknown>;

const VALUE_MEMBERS = new Set(["enum", "const", "default", "examples"]);

export const isSchemaNode = (value: unknown): value is SchemaNode =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `schema` with `rewrite` applied to every object in it, children first. */
export function rewriteSchema(schema: unknown, rewrite: (node: SchemaNode) => SchemaNode): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewriteSchema(item, rewrite));
  if (!isSchemaNode(schema)) return schema;
  const walked: SchemaNode = {};
  for (const [key, value] of Object.entries(schema))
    walked[key] = VALUE_MEMBERS.has(key) ? value : rewriteSchema(value, rewrite);
  return rewrite(walked);
}
