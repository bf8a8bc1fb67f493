/**
 * One answer per OAuth authorization request (decision 0081). The library's signed consent
 * query can be posted again until it expires, and each post would mint another code; a
 * consent page open in two tabs would then approve twice, or approve in one and deny in
 * the other. Claims are rows with a unique key, so they hold across instances.
 */
import { createHash } from "node:crypto";
import { getDb } from "../db";

export type Outcome = "approved" | "denied";

/**
 * Longer than any signed request or code lives, so an approval page reopened from history
 * cannot mint a second code for the same PKCE challenge.
 */
const ANSWER_KEPT_MS = 24 * 3600 * 1000;
/** An approval runs two library steps; a claim left by a crashed instance frees itself after this. */
const IN_FLIGHT_MS = 60 * 1000;

const digest = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest("base64url");

/**
 * The request a consent page answers, as the client made it: its client and PKCE challenge
 * (required, and fresh for every request), whatever our signed query around them says.
 */
export function requestKey(oauthQuery: string): string | null {
  const query = new URLSearchParams(oauthQuery);
  const clientId = query.get("client_id");
  const challenge = query.get("code_challenge");
  return clientId && challenge ? `request:${digest(clientId, challenge)}` : null;
}

/** One approval of one client by one person at a time, so two never write two grants. */
export const clientKey = (clientId: string, userId: string) => `client:${digest(clientId, userId)}`;

async function claim(key: string, outcome: Outcome, userId: string, keptMs: number): Promise<boolean> {
  const db = await getDb();
  const now = new Date();
  await db.oauthDecision.deleteMany({ where: { key, expiresAt: { lt: now } } });
  const { count } = await db.oauthDecision.createMany({
    data: [{ key, outcome, userId, expiresAt: new Date(now.getTime() + keptMs) }],
    skipDuplicates: true,
  });
  return count === 1;
}

export type Answer = { first: true } | { first: false; given: Outcome | null };

/** Whether this call answers the request first; if not, the answer already given (if still kept). */
export async function answerOnce(key: string, outcome: Outcome, userId: string): Promise<Answer> {
  const db = await getDb();
  if (await claim(key, outcome, userId, ANSWER_KEPT_MS)) {
    // Now and then rather than on every approval: forget answers no signed request can reach.
    if (Math.random() < 0.05) await db.oauthDecision.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    return { first: true };
  }
  const given = await db.oauthDecision.findUnique({ where: { key }, select: { outcome: true } });
  return { first: false, given: given ? (given.outcome as Outcome) : null };
}

export const claimInFlight = (key: string, userId: string) => claim(key, "approved", userId, IN_FLIGHT_MS);

export async function release(key: string): Promise<void> {
  const db = await getDb();
  await db.oauthDecision.deleteMany({ where: { key } });
}
