import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError, notFound } from "../../errors";
import { hashToken, lastUsedIsStale, newToken, tokenPrefix } from "../../tokens";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { ZCreateTokenInput, ZIdentityIdInput, ZRevokeTokenInput } from "./schemas";
import { cacheAgent, cachedAgent, evictAgentTokens } from "./token-cache";

const PUBLIC = {
  id: true,
  identityId: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export const listTokens = operation({ role: "viewer", input: ZIdentityIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  return db.agentToken.findMany({
    where: { identityId: id },
    select: PUBLIC,
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
  });
});

/** An agent token for /mcp: returned this once, stored as a hash. */
export const createToken = operation({ role: "operator", input: ZCreateTokenInput }, async (actor, input) => {
  const token = newToken("qm_agent");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const identity = await tx.agentIdentity.findUnique({
      where: { id: input.identityId },
      select: { id: true, name: true },
    });
    if (!identity) throw notFound("Agent Identity");
    const row = await tx.agentToken.create({
      data: { identityId: identity.id, name: input.name, prefix: tokenPrefix(token), hash: hashToken(token) },
      select: PUBLIC,
    });
    await recordAudit(tx, actor, {
      action: "identity.create_token",
      targetType: "identity",
      targetId: identity.id,
      targetLabel: identity.name,
      details: { tokenId: row.id, name: row.name },
    });
    return { token: row, value: token };
  });
});

export const revokeToken = operation({ role: "operator", input: ZRevokeTokenInput }, async (actor, { id }) => {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const row = await tx.agentToken.findUnique({
      where: { id },
      select: { id: true, name: true, revokedAt: true, identity: { select: { id: true, name: true } } },
    });
    if (!row) throw notFound("Agent token");
    if (row.revokedAt) throw new DomainError("CONFLICT", `Agent token "${row.name}" is already revoked.`);
    const updated = await tx.agentToken.update({ where: { id }, data: { revokedAt: new Date() }, select: PUBLIC });
    await recordAudit(tx, actor, {
      action: "identity.revoke_token",
      targetType: "identity",
      targetId: row.identity.id,
      targetLabel: row.identity.name,
      details: { tokenId: id, name: row.name },
    });
    return updated;
  });
  evictAgentTokens({ tokenId: id });
  return result;
});

/** The agent behind a presented token, or null when it is unknown or revoked. */
export async function authenticateAgentToken(token: string): Promise<Actor | null> {
  const hash = hashToken(token);
  const cached = cachedAgent(hash);
  if (cached) return cached;
  const db = await getDb();
  const row = await db.agentToken.findUnique({
    where: { hash },
    select: { id: true, revokedAt: true, lastUsedAt: true, identity: { select: { id: true, name: true } } },
  });
  if (!row || row.revokedAt) return null;
  if (lastUsedIsStale(row.lastUsedAt)) {
    await db.agentToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  const actor = {
    kind: "agent" as const,
    identityId: row.identity.id,
    tokenId: row.id,
    label: `Agent Identity "${row.identity.name}"`,
  };
  cacheAgent(hash, actor);
  return actor;
}
