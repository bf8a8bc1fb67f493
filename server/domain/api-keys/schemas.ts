import { z } from "zod";
import { LIMITS } from "../../limits";
import { ROLES } from "../../roles";

export const ZCreateApiKeyInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "is required")
    .max(LIMITS.API_KEY_NAME_CHARS.value, `must be at most ${LIMITS.API_KEY_NAME_CHARS.value} characters`),
  role: z.enum(ROLES),
});
export type TCreateApiKeyInput = z.input<typeof ZCreateApiKeyInput>;

export const ZRevokeApiKeyInput = z.object({ id: z.string().min(1) });
