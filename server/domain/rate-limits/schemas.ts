import { z } from "zod";
import { LIMITS } from "../../limits";

const perMinute = z
  .number()
  .int("must be a whole number")
  .min(1, "must be at least 1 (or null for no limit)")
  .max(LIMITS.RATE_LIMIT_PER_MINUTE_MAX.value, `must be at most ${LIMITS.RATE_LIMIT_PER_MINUTE_MAX.value}`)
  .nullable();
const concurrent = z
  .number()
  .int("must be a whole number")
  .min(1, "must be at least 1 (or null for no limit)")
  .max(LIMITS.RATE_LIMIT_CONCURRENT_MAX.value, `must be at most ${LIMITS.RATE_LIMIT_CONCURRENT_MAX.value}`)
  .nullable();

export const ZRateLimitSubject = z.object({
  subjectType: z.enum(["identity", "tool"]),
  subjectId: z.string().min(1, "is required").max(100),
});
export type TRateLimitSubject = z.input<typeof ZRateLimitSubject>;

/** null for both removes the limit. */
export const ZSetRateLimitInput = ZRateLimitSubject.extend({ perMinute, concurrent });
export type TSetRateLimitInput = z.input<typeof ZSetRateLimitInput>;
