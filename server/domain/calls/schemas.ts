import { z } from "zod";
import { LIMITS } from "../../limits";

export const CALL_OUTCOMES = ["ok", "is_error", "failed"] as const;

export const ZListCallsInput = z.object({
  identityId: z.string().max(100).optional(),
  sourceId: z.string().max(100).optional(),
  toolId: z.string().max(100).optional(),
  /** The model-facing or built-in name, exactly. */
  tool: z.string().max(200).optional(),
  outcome: z.enum(CALL_OUTCOMES).optional(),
  failureCode: z.string().max(100).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});
export type TListCallsInput = z.input<typeof ZListCallsInput>;

export const ZCallStatsInput = z.object({
  subject: z.enum(["identity", "source", "tool"]),
  id: z.string().min(1).max(100),
  days: z.number().int().min(1).max(LIMITS.CALL_STATS_DAYS.value).default(14),
});
export type TCallStatsInput = z.input<typeof ZCallStatsInput>;

export const ZCallLogSettingsInput = z.object({
  retentionDays: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(LIMITS.CALL_LOG_RETENTION_DAYS_MAX.value, `must be at most ${LIMITS.CALL_LOG_RETENTION_DAYS_MAX.value} days`),
});

export const ZSetCaptureInput = z.object({
  identityId: z.string().min(1),
  /** Days to keep captured payloads; null turns capture off. */
  retentionDays: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(
      LIMITS.CALL_PAYLOAD_RETENTION_DAYS_MAX.value,
      `must be at most ${LIMITS.CALL_PAYLOAD_RETENTION_DAYS_MAX.value} days`,
    )
    .nullable(),
});
export type TSetCaptureInput = z.input<typeof ZSetCaptureInput>;
