import type { z } from "zod";
import { DomainError } from "../errors";
import { unstorableText } from "./storable-text";

/**
 * Validates input at the domain boundary, so every transport gets the same rules and
 * the same message: the first problem, naming its field.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  // Only for input that is relayed, never stored as text, and checked item by item (Tool Results).
  options: { anyText?: boolean } = {},
): z.output<S> {
  if (!options.anyText) rejectUnstorable(input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "input";
  throw new DomainError("INVALID_INPUT", `${field}: ${issue?.message ?? "invalid"}`, {
    field,
    issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
  });
}

/**
 * INVALID_INPUT naming the first text that cannot be stored (a NUL, a lone surrogate), as
 * parseInput answers; for a transport whose own parser has checked the schema already.
 */
export function rejectUnstorable(input: unknown): void {
  const bad = unstorableText(input);
  if (bad)
    throw new DomainError("INVALID_INPUT", `${bad.path}: ${bad.reason}.`, {
      field: bad.path,
      issues: [{ path: bad.path, message: bad.reason }],
    });
}
