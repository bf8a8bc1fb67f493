/**
 * OAuth access tokens at /mcp (decision 0071): opaque, stored by the authorization server
 * as SHA-256 of the value without its prefix, bound to the /mcp resource (RFC 8707) and to
 * the Agent Identity an operator chose at consent (the grant's referenceId). Looked up on
 * every request, not cached: a revocation through the OAuth endpoints holds at once.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { hashToken, lastUsedIsStale } from "../../tokens";

export const OAUTH_ACCESS_TOKEN_PREFIX = "qm_oat_";
export const OAUTH_REFRESH_TOKEN_PREFIX = "qm_ort_";

export function isOAuthAccessToken(token: string): boolean {
  return token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX);
}

/**
 * The identity an access token acts as, or null when the token is unknown, expired,
 * revoked, issued for another resource, or its identity is gone.
 */
export async function authenticateOAuthAccessToken(
  token: string,
  resource: string,
  now = new Date(),
): Promise<Actor | null> {
  if (!isOAuthAccessToken(token)) return null;
  const db = await getDb();
  const row = await db.oauthAccessToken.findUnique({
    where: { token: hashToken(token.slice(OAUTH_ACCESS_TOKEN_PREFIX.length)) },
    select: { id: true, referenceId: true, resources: true, expiresAt: true, revoked: true, lastUsedAt: true },
  });
  if (!row || row.revoked || !row.referenceId) return null;
  if (!row.expiresAt || row.expiresAt <= now) return null;
  // A token the client asked for another resource (or none) is not for /mcp: no passthrough.
  if (!Array.isArray(row.resources) || !row.resources.includes(resource)) return null;
  const identity = await db.agentIdentity.findUnique({
    where: { id: row.referenceId },
    select: { id: true, name: true },
  });
  if (!identity) return null;
  // As a pasted token's: written at most once a minute, so a busy agent costs no write a call.
  if (lastUsedIsStale(row.lastUsedAt, now.getTime()))
    await db.oauthAccessToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  return {
    kind: "agent",
    identityId: identity.id,
    tokenId: `oauth:${row.id}`,
    label: `Agent Identity "${identity.name}" (OAuth)`,
  };
}
