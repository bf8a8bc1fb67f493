import { z } from "zod";

export const ZTryToolInput = z.object({
  toolId: z.string().min(1, "is required"),
  identityId: z.string().min(1, "is required"),
  /** The Tool's arguments by name; the Tool Call limits apply as at /mcp. */
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** Required for a Tool that declares destructiveHint. */
  confirmed: z.boolean().optional(),
});
export type TTryToolInput = z.input<typeof ZTryToolInput>;
