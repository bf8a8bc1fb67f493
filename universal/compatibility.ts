import { evaluateSchemaCompatibility } from "@/sdk/src/contract/compatibility";

/**
 * Whether a model can be offered a Tool as published: the states its input schema decides
 * (sdk/src/contract/compatibility.ts, shared with the SDK), the review states, and one an
 * older release set.
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

/**
 * Only the input schema decides, by the SDK Tool Host contract's rules (the SDK applies the
 * same before registering). `execution.taskSupport: "required"` (MCP 2025-11-25 tasks) no
 * longer refuses a Tool: /mcp runs such a call as a task on its Source
 * (agent-tools/remote-task.ts), so the state `task_required` is only what older rows said
 * until their next check re-judges them (decision 0025, superseded).
 */
export function evaluateCompatibility(inputSchema: unknown): Compatibility {
  return evaluateSchemaCompatibility(inputSchema);
}
