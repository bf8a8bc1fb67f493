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
