import { z } from "zod";
import { LIMITS } from "../../limits";
import { ROLES } from "../../roles";

const password = z
  .string()
  .min(LIMITS.PASSWORD_MIN_CHARS.value, `must be at least ${LIMITS.PASSWORD_MIN_CHARS.value} characters`)
  .max(LIMITS.PASSWORD_MAX_CHARS.value, `must be at most ${LIMITS.PASSWORD_MAX_CHARS.value} characters`);

export const ZRole = z.enum(ROLES);

export const ZCreateUserInput = z.object({
  email: z.email("must be an email address").transform((e) => e.toLowerCase()),
  name: z
    .string()
    .trim()
    .min(1, "is required")
    .max(LIMITS.USER_NAME_CHARS.value, `must be at most ${LIMITS.USER_NAME_CHARS.value} characters`),
  role: ZRole,
  password,
});
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;

export const ZUpdateUserInput = z.object({
  id: z.string().min(1),
  name: ZCreateUserInput.shape.name.optional(),
  role: ZRole.optional(),
  disabled: z.boolean().optional(),
});
export type TUpdateUserInput = z.input<typeof ZUpdateUserInput>;

export const ZResetPasswordInput = z.object({ id: z.string().min(1), password });
export type TResetPasswordInput = z.input<typeof ZResetPasswordInput>;
