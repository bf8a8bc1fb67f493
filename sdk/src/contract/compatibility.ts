/**
 * Whether a model can be offered a Tool, judged from its input schema alone: Quartermaster
 * judges every published Tool with these rules, and the SDK applies the same ones before
 * registering (a strict host refuses to start on a Tool no model would be offered). Each
 * state names one rule that a major model API imposes on function definitions; the reason
 * says what to change where the Tool is defined. Reasons never quote argument names (the
 * reserved-name rule is part of the contract and its reason must not leak the argument).
 */
import { TOOL_HOST_LIMITS as L, RESERVED_ARGUMENT_PREFIX } from "./limits.ts";

/** The states the input schema decides; "compatible" is the one a model is offered. */
export type SchemaVerdict =
  | "compatible"
  | "schema_unsupported"
  | "input_not_object"
  | "external_ref"
  | "top_level_combinator"
  | "too_many_arguments";

export interface SchemaCompatibility {
  state: SchemaVerdict;
  reason: string | null;
}

export const SCHEMA_VERDICT_REASONS = {
  schema_unsupported:
    'A top-level argument name starts with "__", which Quartermaster reserves (in properties or required). Rename the argument where the Tool is defined; the next catalog check or registration picks it up.',
  input_not_object:
    'The input schema\'s root must be a JSON Schema with "type": "object": models call Tools with named arguments. Wrap the value in an object property where the Tool is defined.',
  external_ref:
    'The input schema uses a "$ref" to another document. Model APIs resolve only references inside the schema ("#/…"); inline the referenced schema where the Tool is defined.',
  top_level_combinator:
    'The input schema\'s root uses "oneOf", "anyOf", "allOf", "not" or "enum", which model APIs refuse at the top level. Move the alternatives into a property where the Tool is defined.',
  too_many_arguments: `The input schema declares more than ${L.CALL_TOP_LEVEL_ARGUMENTS.value} top-level arguments, more than one Tool Call may carry. Group arguments into objects where the Tool is defined.`,
} as const satisfies Record<Exclude<SchemaVerdict, "compatible">, string>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasExternalRef(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string" && !value.startsWith("#"))
          return true;
        if (value && typeof value === "object") stack.push(value);
      }
    }
  }
  return false;
}

/** Top-level argument names the contract reserves (in `properties` or `required`). */
export function reservedArgumentNames(inputSchema: unknown): string[] {
  if (!isObject(inputSchema)) return [];
  const properties = isObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : [];
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((r): r is string => typeof r === "string")
    : [];
  return [...new Set([...properties, ...required])].filter((name) => name.startsWith(RESERVED_ARGUMENT_PREFIX));
}

/** The first rule the input schema breaks, or compatible. */
export function evaluateSchemaCompatibility(inputSchema: unknown): SchemaCompatibility {
  const reject = (state: Exclude<SchemaVerdict, "compatible">): SchemaCompatibility => ({
    state,
    reason: SCHEMA_VERDICT_REASONS[state],
  });
  if (!isObject(inputSchema) || inputSchema.type !== "object") return reject("input_not_object");
  if (reservedArgumentNames(inputSchema).length) return reject("schema_unsupported");
  if (["oneOf", "anyOf", "allOf", "not", "enum"].some((k) => k in inputSchema)) return reject("top_level_combinator");
  if (hasExternalRef(inputSchema)) return reject("external_ref");
  const properties = isObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : [];
  if (properties.length > L.CALL_TOP_LEVEL_ARGUMENTS.value) return reject("too_many_arguments");
  return { state: "compatible", reason: null };
}
