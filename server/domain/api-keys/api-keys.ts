import { type Actor, requireRole, SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { DomainError, notFound } from "../../errors";
import type { Role } from "../../roles";
import { hashToken, lastUsedIsStale, newToken, tokenPrefix } from "../../tokens";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { ZCreateApiKeyInput, ZRevokeApiKeyInput } from "./schemas";

const publicKey = {
  id: true,
  name: true,
  role: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdBy: { select: { email: true } },
} as const;

export async function listApiKeys(actor: Actor) {
  requireRole(actor, "admin");
  const db = await getDb();
  return db.apiKey.findMany({
    select: publicKey,
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
  });
}

/** Returns the key itself exactly once; only its hash is kept. */
export const createApiKey = operation({ role: "admin", input: ZCreateApiKeyInput }, async (actor, input) => {
  const key = newToken("qm_key");
  const db = await getDb();
  const created = await db.$transaction(async (tx) => {
    const row = await tx.apiKey.create({
      data: {
        name: input.name,
        role: input.role,
        prefix: tokenPrefix(key),
        hash: hashToken(key),
        createdById: actor.kind === "user" ? actor.id : null,
      },
      select: publicKey,
    });
    await recordAudit(tx, actor, {
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      targetLabel: row.name,
      details: { role: row.role },
    });
    return row;
  });
  return { apiKey: created, key };
});

export const revokeApiKey = operation({ role: "admin", input: ZRevokeApiKeyInput }, async (actor, { id }) => {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const row = await tx.apiKey.findUnique({ where: { id }, select: { id: true, name: true, revokedAt: true } });
    if (!row) throw notFound("API key");
    if (row.revokedAt) throw new DomainError("CONFLICT", `API key "${row.name}" is already revoked.`);
    const updated = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select: publicKey });
    await recordAudit(tx, actor, {
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: id,
      targetLabel: row.name,
    });
    return updated;
  });
});

/** The actor behind a presented key, or null when it is unknown or revoked. */
export async function authenticateApiKey(key: string): Promise<Actor | null> {
  const db = await getDb();
  const row = await db.apiKey.findUnique({
    where: { hash: hashToken(key) },
    select: { id: true, name: true, role: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (lastUsedIsStale(row.lastUsedAt, now)) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return { kind: "api_key", id: row.id, name: row.name, role: row.role as Role };
}

/**
 * QM_BOOTSTRAP_API_KEY: an admin key with exactly this value exists and is not
 * revoked. Idempotent across restarts.
 */
export async function ensureBootstrapApiKey(key: string): Promise<{ created: boolean }> {
  const db = await getDb();
  const hash = hashToken(key);
  const existing = await db.apiKey.findUnique({ where: { hash }, select: { id: true, revokedAt: true, role: true } });
  if (existing && !existing.revokedAt && existing.role === "admin") return { created: false };
  await db.$transaction(async (tx) => {
    const row = existing
      ? await tx.apiKey.update({ where: { hash }, data: { revokedAt: null, role: "admin" } })
      : await tx.apiKey.create({
          data: { name: "Bootstrap (QM_BOOTSTRAP_API_KEY)", role: "admin", prefix: tokenPrefix(key), hash },
        });
    await recordAudit(tx, SYSTEM, {
      action: existing ? "api_key.restore" : "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      targetLabel: row.name,
      details: { role: "admin", source: "QM_BOOTSTRAP_API_KEY" },
    });
  });
  return { created: !existing };
}
