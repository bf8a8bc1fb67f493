import { z } from "zod";
import { LIMITS } from "../../limits";

export const ZListAuditEventsInput = z.object({
  actorType: z.enum(["user", "api_key", "agent", "tool_host", "system"]).optional(),
  action: z.string().max(100).optional(),
  targetType: z.string().max(100).optional(),
  targetId: z.string().max(200).optional(),
  /** Free text over actor, action and target labels. */
  search: z.string().max(200).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  /** Opaque; from the previous page's nextCursor. */
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(50),
});
export type TListAuditEventsInput = z.input<typeof ZListAuditEventsInput>;
