/**
 * /api/auth/*: better-auth, with console sign-in attempts charged to the sign-in throttle
 * first (per account and client address, in the database), and every body bounded.
 */

import { fmtBytes } from "@/universal/format";
import { admitClientRegistration } from "../domain/identities/client-registration";
import { bodyTooLarge } from "../http/body-limits";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { problem, problemOf } from "../http/problem";
import { LIMITS } from "../limits";
import { log } from "../log";
import { type Auth, getAuth } from ".";
import { chargeSignIn, refundSignIn } from "./sign-in-throttle";

/** A path as better-auth's router matches it: case, repeated and trailing slashes do not count. */
function routedPath(pathname: string): string {
  return pathname
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "");
}

/** The password sign-in, however its path is spelled. */
export function isPasswordSignIn(pathname: string): boolean {
  return routedPath(pathname).endsWith("/sign-in/email");
}

async function readText(req: Request, limit: number): Promise<string> {
  const reader = req.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge("a request to /api/auth", limit, `more than ${fmtBytes(limit)}`, "AUTH_REQUEST_BODY_BYTES");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function emailOf(text: string, contentType: string): string | null {
  try {
    const value = contentType.includes("application/x-www-form-urlencoded")
      ? new URLSearchParams(text).get("email")
      : (JSON.parse(text) as { email?: unknown } | null)?.email;
    return typeof value === "string" && value.trim() ? value.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** Dynamic client registration, however its path is spelled. */
export function isClientRegistration(pathname: string): boolean {
  return routedPath(pathname).endsWith("/oauth2/register");
}

async function register(auth: Auth, req: Request): Promise<Response> {
  const refused = await admitClientRegistration(req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
  if (!refused) return auth.handler(req);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (refused.retryAfterSeconds) headers["retry-after"] = String(refused.retryAfterSeconds);
  return Response.json(refused.body, { status: refused.status, headers });
}

export async function handleAuthRequest(req: Request): Promise<Response> {
  const auth = await getAuth();
  if (req.method === "POST" && isClientRegistration(new URL(req.url).pathname)) return register(auth, req);
  if (req.method !== "POST" || !isPasswordSignIn(new URL(req.url).pathname)) return auth.handler(req);

  let text: string;
  try {
    text = await readText(req, LIMITS.AUTH_REQUEST_BODY_BYTES.value);
  } catch (error) {
    const refusal = problemOf(error);
    if (!refusal) throw error;
    return refusal;
  }
  const email = emailOf(text, req.headers.get("content-type") ?? "");
  const address = req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
  const decision = await chargeSignIn(email, address);
  if (!decision.allowed) {
    log.warn({ scope: decision.scope, client: address }, "sign-in throttled");
    const message =
      decision.scope === "address"
        ? `Too many failed sign-ins from your address. Try again in ${waitText(decision.retryAfterSeconds)}.`
        : `Too many failed sign-ins for this account. Try again in ${waitText(decision.retryAfterSeconds)}.`;
    return problem("SIGN_IN_THROTTLED", message, undefined, { "retry-after": String(decision.retryAfterSeconds) });
  }
  const response = await auth.handler(new Request(req.url, { method: "POST", headers: req.headers, body: text }));
  if (response.ok) await refundSignIn(decision);
  return response;
}
