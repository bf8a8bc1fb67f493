import { canonicalJson, utf8Bytes } from "@/server/domain/catalog/canonical";
import { measureSchemas } from "@/server/domain/catalog/schema-measure";

/** A Tool whose canonical definition is exactly `bytes` long (padding in a property description). */
export function toolOfBytes(name: string, bytes: number) {
  const make = (pad: string) => ({
    name,
    description: "Sized for a limit test.",
    inputSchema: { type: "object", properties: { q: { type: "string", description: pad } } },
  });
  const base = utf8Bytes(canonicalJson(make("")));
  if (bytes < base) throw new Error(`cannot make a Tool of ${bytes} bytes (minimum ${base})`);
  const tool = make("x".repeat(bytes - base));
  if (utf8Bytes(canonicalJson(tool)) !== bytes) throw new Error("size arithmetic is off");
  return tool;
}

/** An object schema exactly `depth` levels deep (root = level 1). */
export function schemaOfDepth(depth: number): Record<string, unknown> {
  // { type: "object", x: { x: { ... { x: 1 } } } }: root 1, each x one level, the leaf one more.
  let inner: unknown = 1;
  for (let level = depth - 1; level >= 2; level--) inner = { x: inner };
  const schema = depth >= 2 ? { type: "object", x: inner } : { type: "object" };
  const measured = measureSchemas([schema]).depth;
  if (measured !== depth) throw new Error(`schemaOfDepth(${depth}) measured ${measured}`);
  return schema;
}

/** An object schema with exactly `nodes` JSON nodes. */
export function schemaOfNodes(nodes: number): Record<string, unknown> {
  // root + "object" + the array = 3 nodes, plus one per element.
  const schema = { type: "object", "x-pad": Array.from({ length: nodes - 3 }, () => 0) };
  if (measureSchemas([schema]).nodes !== nodes) throw new Error("node arithmetic is off");
  return schema;
}
