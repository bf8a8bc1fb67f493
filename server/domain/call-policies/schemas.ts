import { z } from "zod";
import { CALL_POLICIES } from "./policy";

export const ZCallPolicy = z.enum(CALL_POLICIES);

export const ZSetToolCallPolicyInput = z.object({
  toolId: z.string().min(1).max(100),
  /** null: the Tool follows its Source's policy. */
  policy: ZCallPolicy.nullable(),
});
export type TSetToolCallPolicyInput = z.infer<typeof ZSetToolCallPolicyInput>;

export const ZSetSourceCallPolicyInput = z.object({
  sourceId: z.string().min(1).max(100),
  policy: ZCallPolicy,
});
export type TSetSourceCallPolicyInput = z.infer<typeof ZSetSourceCallPolicyInput>;

export const ZDecideApprovalInput = z
  .object({
    id: z.string().min(1).max(100),
    decision: z.enum(["approve", "deny"]),
    /** Required to deny: the agent is told it. */
    reason: z.string().trim().min(3, "at least 3 characters").max(1000, "at most 1,000 characters").optional(),
  })
  .refine((v) => v.decision === "approve" || v.reason, { message: "a denial needs a reason", path: ["reason"] });
export type TDecideApprovalInput = z.input<typeof ZDecideApprovalInput>;

export const ZCallPolicyDefaults = z.object({
  /** Tools whose annotations say destructiveHint: true are under confirm unless their own or their Source's policy is set. */
  confirmDestructive: z.boolean(),
});
export type TCallPolicyDefaults = z.infer<typeof ZCallPolicyDefaults>;
