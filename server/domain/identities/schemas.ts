import { z } from "zod";
import { LIMITS } from "../../limits";

const name = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");
// Instructions are bounded by the budget (checked in bytes); this only stops absurd input early.
const instructions = z
  .string()
  .max(LIMITS.IDENTITY_BUDGET_BYTES.value, `must be at most ${LIMITS.IDENTITY_BUDGET_BYTES.value} characters`);

export const ZCreateIdentityInput = z.object({
  name,
  description: z.string().trim().max(1000, "must be at most 1,000 characters").optional(),
  instructions: instructions.optional(),
});
export type TCreateIdentityInput = z.input<typeof ZCreateIdentityInput>;

export const ZExposure = z.enum(["all", "selection", "auto"]);

export const ZUpdateIdentityInput = z.object({
  id: z.string().min(1),
  name: name.optional(),
  description: z.string().trim().max(1000, "must be at most 1,000 characters").optional(),
  instructions: instructions.optional(),
  /** Which held Tools tools/list offers (docs/mcp.md, Exposure). */
  exposure: ZExposure.optional(),
  /** Bytes of catalog definitions a selection may list; null for the release default. */
  listingBudgetBytes: z
    .number()
    .int()
    .min(1024, "must be at least 1,024 bytes")
    .max(
      LIMITS.LISTING_BUDGET_MAX_BYTES.value,
      `must be at most ${LIMITS.LISTING_BUDGET_MAX_BYTES.value.toLocaleString("en")} bytes (LISTING_BUDGET_MAX_BYTES)`,
    )
    .nullable()
    .optional(),
});

export const ZPinInput = z.object({
  identityId: z.string().min(1),
  /** The Tool's model-facing name. */
  name: z.string().min(1).max(64),
});
export type TUpdateIdentityInput = z.input<typeof ZUpdateIdentityInput>;

export const ZIdentityIdInput = z.object({ id: z.string().min(1) });
export const ZAssignmentInput = z.object({ identityId: z.string().min(1), sourceId: z.string().min(1) });

export const ZListIdentitiesInput = z
  .object({
    search: z.string().trim().max(200).optional(),
    state: z.enum(["ok", "over_budget"]).optional(),
    sourceId: z.string().optional(),
  })
  .default({});

export const ZHoldingsInput = z.object({
  id: z.string().min(1),
  search: z.string().trim().max(200).optional(),
  sourceId: z.string().optional(),
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});

export const ZLossesInput = z.object({
  id: z.string().min(1),
  /** Losses only, gains only, or both. */
  include: z.enum(["losses", "gains", "all"]).default("all"),
  /** Matches the Tool's model-facing and native names and the Source's name. */
  search: z.string().trim().max(200, "must be at most 200 characters").optional(),
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});

export const ZCreateTokenInput = z.object({
  identityId: z.string().min(1),
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
});
export const ZRevokeTokenInput = z.object({ id: z.string().min(1) });
