import { LIMITS, RESERVED_ARGUMENT_PREFIX } from "../../limits";

/**
 * Whether a model can be offered a Tool as published. Each state names one rule that a
 * major model API imposes on function definitions; the reason says what to change where
 * the Tool is defined. Reasons never quote argument names (the reserved-name rule is
 * part of the contract and its reason must not leak the argument).
 */
export const COMPATIBILITY_STATES = [
  "compatible",
  "schema_unsupported",
  "input_not_object",
  "external_ref",
  "top_level_combinator",
  "too_many_arguments",
  "task_required",
  // Not judged from the schema: set by a Source's review policy (catalog/review-publish.ts).
  "awaiting_review",
  "review_rejected",
] as const;
export type CompatibilityState = (typeof COMPATIBILITY_STATES)[number];

export const COMPATIBILITY_LABELS: Record<CompatibilityState, string> = {
  compatible: "Compatible",
  schema_unsupported: "Schema unsupported",
  input_not_object: "Input not an object",
  external_ref: "External reference",
  top_level_combinator: "Top-level combinator",
  too_many_arguments: "Too many arguments",
  task_required: "Task required",
  awaiting_review: "Awaiting review",
  review_rejected: "Rejected in review",
};

/**
 * The catalog filter for every Tool no model is offered: any state but Compatible, and
 * Compatible Tools withdrawn while their SDK host is silent.
 */
export const NOT_OFFERABLE = "not_offerable";
export const NOT_OFFERABLE_LABEL = "Not offerable";

export interface Compatibility {
  state: CompatibilityState;
  reason: string | null;
}

/** The states a reviewer's decision sets or clears, never evaluateCompatibility. */
export const REVIEW_STATES = ["awaiting_review", "review_rejected"] as const satisfies readonly CompatibilityState[];
export type ReviewState = (typeof REVIEW_STATES)[number];

/**
 * Kept in one place because the migration that re-judged existing Tools
 * (prisma/migrations/*_task_required_tools) wrote the same sentence.
 */
export const TASK_REQUIRED_REASON =
  'The Tool is published with "execution": { "taskSupport": "required" }: its server runs it only as an MCP task, which a plain tools/call from a model cannot start. Publish it with taskSupport "optional" (or omit "execution") where the Tool is defined, and the next catalog check picks it up.';

const REASONS = {
  schema_unsupported:
    'A top-level argument name starts with "__", which Quartermaster reserves (in properties or required). Rename the argument where the Tool is defined; the next catalog check or registration picks it up.',
  input_not_object:
    'The input schema\'s root must be a JSON Schema with "type": "object": models call Tools with named arguments. Wrap the value in an object property where the Tool is defined.',
  external_ref:
    'The input schema uses a "$ref" to another document. Model APIs resolve only references inside the schema ("#/…"); inline the referenced schema where the Tool is defined.',
  top_level_combinator:
    'The input schema\'s root uses "oneOf", "anyOf", "allOf", "not" or "enum", which model APIs refuse at the top level. Move the alternatives into a property where the Tool is defined.',
  too_many_arguments: `The input schema declares more than ${LIMITS.CALL_TOP_LEVEL_ARGUMENTS.value} top-level arguments, more than one Tool Call may carry. Group arguments into objects where the Tool is defined.`,
  task_required: TASK_REQUIRED_REASON,
} as const;

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

/**
 * Only the input schema decides. `execution.taskSupport: "required"` (MCP 2025-11-25 tasks)
 * no longer refuses a Tool: /mcp runs such a call as a task on its Source
 * (agent-tools/remote-task.ts), so the state `task_required` is only what older rows said
 * until their next check re-judges them (decision 0025, superseded).
 */
export function evaluateCompatibility(inputSchema: unknown): Compatibility {
  const reject = (state: Exclude<CompatibilityState, "compatible" | ReviewState>): Compatibility => ({
    state,
    reason: REASONS[state],
  });
  if (!isObject(inputSchema) || inputSchema.type !== "object") return reject("input_not_object");

  const properties = isObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : [];
  const required = Array.isArray(inputSchema.required) ? inputSchema.required.filter((r) => typeof r === "string") : [];
  if ([...properties, ...required].some((name) => name.startsWith(RESERVED_ARGUMENT_PREFIX)))
    return reject("schema_unsupported");

  if (["oneOf", "anyOf", "allOf", "not", "enum"].some((k) => k in inputSchema)) return reject("top_level_combinator");
  if (hasExternalRef(inputSchema)) return reject("external_ref");
  if (properties.length > LIMITS.CALL_TOP_LEVEL_ARGUMENTS.value) return reject("too_many_arguments");
  return { state: "compatible", reason: null };
}
