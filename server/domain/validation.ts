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
  const bad = options.anyText ? null : unstorableText(input);
  if (bad)
    throw new DomainError("INVALID_INPUT", `${bad.path}: ${bad.reason}.`, {
      field: bad.path,
      issues: [{ path: bad.path, message: bad.reason }],
    });
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "input";
  throw new DomainError("INVALID_INPUT", `${field}: ${issue?.message ?? "invalid"}`, {
    field,
    issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
  });
}
