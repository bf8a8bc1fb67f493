/**
 * Depth and node count of a Tool's JSON Schemas, measured together across the input
 * and output schema. Iterative, and it stops as soon as a limit is passed, so a hostile
 * schema costs no more than the limit to reject.
 *
 * Depth counts levels: a scalar is 1, `{}` is 1, `{"a": 1}` is 2. Every JSON value
 * (object, array, string, number, boolean, null) is one node.
 */
export interface SchemaMeasure {
  depth: number;
  nodes: number;
  /** Set when a limit was passed; depth/nodes then hold the value at which measuring stopped. */
  exceeded?: "depth" | "nodes";
}

export function measureSchemas(
  schemas: readonly unknown[],
  limits: { depth: number; nodes: number } = { depth: Number.POSITIVE_INFINITY, nodes: Number.POSITIVE_INFINITY },
): SchemaMeasure {
  let nodes = 0;
  let depth = 0;
  const stack: Array<[unknown, number]> = [];
  for (let i = schemas.length - 1; i >= 0; i--) if (schemas[i] !== undefined) stack.push([schemas[i], 1]);
  while (stack.length) {
    const [value, level] = stack.pop() as [unknown, number];
    nodes++;
    if (level > depth) depth = level;
    if (depth > limits.depth) return { depth, nodes, exceeded: "depth" };
    if (nodes > limits.nodes) return { depth, nodes, exceeded: "nodes" };
    if (Array.isArray(value)) {
      for (const child of value) stack.push([child, level + 1]);
    } else if (value && typeof value === "object") {
      for (const key in value) {
        if (Object.hasOwn(value, key)) stack.push([(value as Record<string, unknown>)[key], level + 1]);
      }
    }
  }
  return { depth, nodes };
}
