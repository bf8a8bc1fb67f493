import { canonicalJson, sha256 } from "./canonical";

/**
 * What a reviewer approves: everything a model reads or a client acts on. Other members
 * (`_meta`, `icons`, `execution`) may change without a review; `execution` is judged by
 * compatibility instead (a task-only Tool is never offered).
 */
export const REVIEWED_FIELDS = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"] as const;
export type ReviewedField = (typeof REVIEWED_FIELDS)[number];

/** The reviewed members of a stored definition (canonical JSON text). */
export function reviewedPart(canonical: string): Partial<Record<ReviewedField, unknown>> {
  const parsed = JSON.parse(canonical) as Record<string, unknown>;
  const out: Partial<Record<ReviewedField, unknown>> = {};
  for (const f of REVIEWED_FIELDS) if (parsed[f] !== undefined) out[f] = parsed[f];
  return out;
}

/** SHA-256 of the canonical JSON of the reviewed members: the digest an operator approves. */
export function reviewDigest(canonical: string): string {
  return sha256(canonicalJson(reviewedPart(canonical)));
}

/** Which reviewed members differ between two definitions (canonical JSON texts). */
export function changedFields(before: string | null, after: string): ReviewedField[] {
  const a = before ? reviewedPart(before) : {};
  const b = reviewedPart(after);
  return REVIEWED_FIELDS.filter((f) => canonicalJson(a[f] ?? null) !== canonicalJson(b[f] ?? null));
}
