/**
 * Bearer secrets (API keys, agent tokens, host tokens): 256 random bits with a short
 * prefix naming the kind, stored only as SHA-256. A slow hash protects guessable
 * passwords; these are not guessable, and lookups must be one indexed query.
 */
import { createHash, randomBytes } from "node:crypto";

export type TokenKind = "qm_key" | "qm_agent" | "qm_host";

export function newToken(kind: TokenKind): string {
  return `${kind}_${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** What the console shows to recognise a token: its kind and first characters. */
export function tokenPrefix(token: string): string {
  const kind = /^qm_(?:key|agent|host)_/.exec(token)?.[0] ?? "";
  return `${token.slice(0, kind.length + 6)}…`;
}

export function bearerToken(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

// Writing "last used" on every request would turn each read into a write; a minute is
// precise enough for people deciding whether a credential is still in use.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a credential's last-used time is stale enough to be written again. */
export function lastUsedIsStale(lastUsedAt: Date | null, now = Date.now()): boolean {
  return !lastUsedAt || now - lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS;
}
