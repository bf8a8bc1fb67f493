/**
 * Console sign-in: better-auth with its Prisma adapter. Sessions live in the database;
 * passwords are hashed by the library (scrypt). Public sign-up is off: admins create
 * users (Settings → Users, `npm run qm -- create-admin`, or the bootstrap variables).
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { env } from "@/env";
import { getDb } from "../db";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { LIMITS } from "../limits";
import { installationSecret } from "../secrets";
import { mcpOAuthPlugin, oauthOffered } from "./oauth";
import { forBetterAuth } from "./oauth-prisma";

export function baseUrl(): string {
  return env.QM_BASE_URL ?? `http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT}`;
}

/** Origins the console is served from: a browser request from anywhere else is not ours. */
export function trustedOrigins(): string[] {
  return [baseUrl(), `http://127.0.0.1:${env.PORT}`, `http://localhost:${env.PORT}`].map((u) => new URL(u).origin);
}

async function createAuth() {
  const db = await getDb();
  return betterAuth({
    appName: "Quartermaster",
    baseURL: baseUrl(),
    secret: installationSecret(),
    database: prismaAdapter(forBetterAuth(db), { provider: "postgresql" }),
    telemetry: { enabled: false },
    trustedOrigins: trustedOrigins(),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: LIMITS.PASSWORD_MIN_CHARS.value,
      maxPasswordLength: LIMITS.PASSWORD_MAX_CHARS.value,
    },
    user: {
      additionalFields: {
        role: { type: "string", input: false, defaultValue: "viewer" },
        disabledAt: { type: "date", required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Password sign-ins are limited by our own throttle (sign-in-throttle.ts: per account and
    // address, shared through the database); better-auth's in-memory limiter keeps the rest.
    rateLimit: { customRules: { "/sign-in/email": false } },
    advanced: {
      // Set by the front on every request from the socket (and trusted proxies only); any
      // X-Forwarded-For a client sends is not believed.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            const user = await db.user.findUnique({ where: { id: session.userId }, select: { disabledAt: true } });
            if (!user || user.disabledAt) {
              throw new APIError("FORBIDDEN", { message: "This account is disabled. Ask an admin to enable it." });
            }
          },
        },
      },
    },
    // Cast: the plugin's endpoints are typed in whether or not this address may offer OAuth;
    // discovery (oauth-discovery.ts) asks oauthOffered before reaching them.
    plugins: [...(oauthOffered(baseUrl()) ? [mcpOAuthPlugin(baseUrl())] : []), nextCookies()] as [
      ReturnType<typeof mcpOAuthPlugin>,
      ReturnType<typeof nextCookies>,
    ],
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const KEY = Symbol.for("quartermaster.auth");
type Holder = { [KEY]?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createAuth();
  return holder[KEY];
}

/** Forgets the instance (tests that swap databases). */
export function resetAuth(): void {
  (globalThis as Holder)[KEY] = undefined;
}
