/**
 * Dynamic Client Registration (RFC 7591) at the authorization server: open, because a
 * client registers before anyone has signed in (decision 0071). Two things keep that open
 * door from being a nuisance: a per-address rate shared by every instance, and an admin's
 * switch that turns registration off (clients registered already keep working; a person
 * still approves each one for an identity).
 */
import { z } from "zod";
import { addressKey } from "../../auth/sign-in-throttle";
import { LIMITS } from "../../limits";
import { operation } from "../operation";
import { countThisMinute } from "../rate-limits/admit";
import { readSetting, writeAuditedSetting } from "../system/settings";

const KEY = "oauth.clientRegistration";

export const ZClientRegistrationInput = z.object({ enabled: z.boolean() }).strict();

async function registrationEnabled(): Promise<boolean> {
  return (await readSetting<boolean>(KEY)) !== false;
}

export const getClientRegistration = operation({ role: "viewer", input: z.void() }, async () => ({
  enabled: await registrationEnabled(),
  perMinute: LIMITS.OAUTH_REGISTRATIONS_PER_MINUTE.value,
}));

export const setClientRegistration = operation(
  { role: "admin", input: ZClientRegistrationInput },
  async (actor, { enabled }) => {
    await writeAuditedSetting(actor, KEY, enabled, {
      action: "settings.oauth_client_registration",
      details: { enabled },
    });
    return { enabled, perMinute: LIMITS.OAUTH_REGISTRATIONS_PER_MINUTE.value };
  },
);

export type RegistrationRefusal = {
  status: 403 | 429;
  /** RFC 7591 §3.2.2 leaves the code open; RFC 6749's fit what the client should do. */
  body: { error: "access_denied" | "temporarily_unavailable"; error_description: string };
  retryAfterSeconds?: number;
};

/** Whether a registration from this client address may go on to the authorization server. */
export async function admitClientRegistration(address: string): Promise<RegistrationRefusal | null> {
  if (!(await registrationEnabled()))
    return {
      status: 403,
      body: {
        error: "access_denied",
        error_description:
          "Dynamic client registration is turned off on this server: ask an admin to register your client or turn it on, or send an Agent Identity's token as Authorization: Bearer <token>.",
      },
    };
  const limit = LIMITS.OAUTH_REGISTRATIONS_PER_MINUTE.value;
  const window = await countThisMinute(`oauth-register:${addressKey(address)}`);
  if (!window || window.count <= limit) return null;
  const retryAfterSeconds = Math.max(1, Math.ceil(window.retryAfterMs / 1000));
  return {
    status: 429,
    body: {
      error: "temporarily_unavailable",
      error_description: `At most ${limit} clients may register a minute from one address (OAUTH_REGISTRATIONS_PER_MINUTE). Retry in ${retryAfterSeconds} s.`,
    },
    retryAfterSeconds,
  };
}
