import { z } from "zod";
import { LIMITS } from "../../limits";
import { REVIEW_STATES } from "./compatibility";

export const ZReviewQueueInput = z.object({
  sourceId: z.string().min(1).optional(),
  /** Only the Sources this Agent Identity holds: what it would be offered once approved. */
  identityId: z.string().min(1).optional(),
  state: z.enum(REVIEW_STATES).optional(),
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});

export const ZReviewToolInput = z.object({ id: z.string().min(1) });

const digest = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 digest (64 hex digits) from the review");

export const ZReviewDecisionInput = z.object({
  decision: z.enum(["approve", "reject"], { error: 'must be "approve" or "reject"' }),
  /** Each Tool with the digest of the definition the reviewer saw. */
  tools: z
    .array(z.object({ id: z.string().min(1), digest }))
    .min(1, "must name at least one Tool")
    .max(LIMITS.REVIEW_DECISION_TOOLS.value, `at most ${LIMITS.REVIEW_DECISION_TOOLS.value} Tools in one decision`),
  note: z.string().trim().max(1000, "must be at most 1,000 characters").optional(),
});

export const ZReviewSourceInput = z.object({
  sourceId: z.string().min(1),
  /** The catalog version the reviewer saw (from the queue); approval is refused if it moved. */
  catalogVersion: z.number().int().min(0).optional(),
});

export const ZSetReviewPolicyInput = z.object({
  sourceId: z.string().min(1),
  policy: z.enum(["review", "trust"], { error: 'must be "review" or "trust"' }),
});
