/**
 * Scopes and the grants that let Agent Identities into them. Curators (and admins) create
 * and change scopes; curators and operators grant identities access, from either side (the
 * scope's page or the identity's).
 */
import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { parseInput } from "../validation";
import { memoryVisible, requireGrantRole, requireScope, scopeWhere } from "./access";
import {
  ZCreateScopeInput,
  ZGrantInput,
  ZIdentityGrantsInput,
  ZRevokeInput,
  ZScopeIdInput,
  ZUpdateScopeInput,
} from "./schemas";

const SCOPE = {
  id: true,
  name: true,
  description: true,
  consolidateEverySeconds: true,
  agentWrites: true,
  lastConsolidatedAt: true,
  nextConsolidationAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

function nameTaken(error: unknown, name: string): never {
  if ((error as { code?: string }).code === "P2002")
    throw new DomainError("CONFLICT", `A scope named "${name}" already exists.`, { field: "name" });
  throw error;
}

export const createScope = operation({ role: "curator", input: ZCreateScopeInput }, async (actor, input) => {
  const db = await getDb();
  return db
    .$transaction(async (tx) => {
      const scope = await tx.scope.create({
        data: {
          name: input.name,
          description: input.description,
          ...(input.consolidateEverySeconds ? { consolidateEverySeconds: input.consolidateEverySeconds } : {}),
          nextConsolidationAt: new Date(Date.now() + (input.consolidateEverySeconds ?? 3600) * 1000),
        },
        select: SCOPE,
      });
      await recordAudit(tx, actor, {
        action: "scope.create",
        targetType: "scope",
        targetId: scope.id,
        targetLabel: scope.name,
      });
      return scope;
    })
    .catch((e: unknown) => nameTaken(e, input.name));
});

export const updateScope = operation({ role: "curator", input: ZUpdateScopeInput }, async (actor, input) => {
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  return db
    .$transaction(async (tx) => {
      const before = await tx.scope.findUniqueOrThrow({ where: { id: scope.id }, select: { agentWrites: true } });
      const updated = await tx.scope.update({
        where: { id: scope.id },
        data: {
          name: input.name,
          description: input.description,
          consolidateEverySeconds: input.consolidateEverySeconds,
          agentWrites: input.agentWrites,
        },
        select: SCOPE,
      });
      await recordAudit(tx, actor, {
        action: "scope.update",
        targetType: "scope",
        targetId: scope.id,
        targetLabel: updated.name,
        details: {
          ...(input.name && input.name !== scope.name ? { renamedFrom: scope.name } : {}),
          // Who sees agents' writes is a trust decision: the audit log keeps each change.
          ...(input.agentWrites && input.agentWrites !== before.agentWrites
            ? { agentWrites: { from: before.agentWrites, to: input.agentWrites } }
            : {}),
        },
      });
      return updated;
    })
    .catch((e: unknown) => nameTaken(e, input.name ?? scope.name));
});

/** Deletes a scope with everything in it. Admins only: it is memory no one can get back. */
export const deleteScope = operation({ role: "admin", input: ZScopeIdInput }, async (actor, { scopeId }) => {
  const scope = await requireScope(actor, scopeId, "write");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const memories = await tx.memory.count({ where: { scopeId } });
    await tx.scope.delete({ where: { id: scope.id } });
    await tx.agentToken.updateMany({ where: { workingScopeId: scope.id }, data: { workingScopeId: null } });
    await recordAudit(tx, actor, {
      action: "scope.delete",
      targetType: "scope",
      targetId: scope.id,
      targetLabel: scope.name,
      details: { memories },
    });
    return { id: scope.id, name: scope.name, memories };
  });
});

/** The scopes the actor may read, with their size and the actor's access. */
export async function listScopes(actor: Actor) {
  const db = await getDb();
  const scopes = await db.scope.findMany({ where: scopeWhere(actor, "read"), orderBy: { name: "asc" }, select: SCOPE });
  if (!scopes.length) return [];
  const ids = scopes.map((s) => s.id);
  const [memories, threads, proposals, grants, writable] = await Promise.all([
    db.memory.groupBy({
      by: ["scopeId"],
      where: { scopeId: { in: ids }, supersededById: null, discardedAt: null, erasedAt: null, ...memoryVisible(actor) },
      _count: { _all: true },
    }),
    db.thread.groupBy({ by: ["scopeId"], where: { scopeId: { in: ids }, archivedAt: null }, _count: { _all: true } }),
    db.proposal.groupBy({
      by: ["scopeId"],
      where: { scopeId: { in: ids }, status: "pending" },
      _count: { _all: true },
    }),
    db.scopeGrant.groupBy({ by: ["scopeId"], where: { scopeId: { in: ids } }, _count: { _all: true } }),
    db.scope.findMany({ where: { AND: [{ id: { in: ids } }, scopeWhere(actor, "write")] }, select: { id: true } }),
  ]);
  const count = (rows: { scopeId: string; _count: { _all: number } }[], id: string) =>
    rows.find((r) => r.scopeId === id)?._count._all ?? 0;
  return scopes.map((s) => ({
    ...s,
    memories: count(memories, s.id),
    threads: count(threads, s.id),
    pendingProposals: count(proposals, s.id),
    grants: count(grants, s.id),
    access: writable.some((w) => w.id === s.id) ? ("write" as const) : ("read" as const),
  }));
}

/**
 * The scope's list version: it moves with every write to the scope's memories, threads,
 * thread memberships and proposals (database triggers), so a console list polls this one
 * value and refetches its rows only when it moved (docs/decisions/0022-memory-lists.md).
 */
export async function getScopeVersion(actor: Actor, raw: unknown) {
  const { scopeId } = parseInput(ZScopeIdInput, raw);
  await requireScope(actor, scopeId, "read");
  const db = await getDb();
  const scope = await db.scope.findUniqueOrThrow({ where: { id: scopeId }, select: { listVersion: true } });
  return { scopeId, version: scope.listVersion.toString() };
}

export async function getScope(actor: Actor, raw: unknown) {
  const { scopeId } = parseInput(ZScopeIdInput, raw);
  await requireScope(actor, scopeId, "read");
  const all = await listScopes(actor);
  const scope = all.find((s) => s.id === scopeId);
  if (!scope) throw new DomainError("NOT_FOUND", "Scope was not found.");
  return scope;
}

export async function grantScope(actor: Actor, raw: unknown) {
  requireGrantRole(actor);
  const input = parseInput(ZGrantInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const [scope, identity] = await Promise.all([
      tx.scope.findUnique({ where: { id: input.scopeId }, select: { id: true, name: true } }),
      tx.agentIdentity.findUnique({ where: { id: input.identityId }, select: { id: true, name: true } }),
    ]);
    if (!scope) throw new DomainError("NOT_FOUND", "Scope was not found.", { field: "scopeId" });
    if (!identity) throw new DomainError("NOT_FOUND", "Agent Identity was not found.", { field: "identityId" });
    const before = await tx.scopeGrant.findUnique({
      where: { scopeId_identityId: { scopeId: scope.id, identityId: identity.id } },
      select: { access: true },
    });
    const grant = await tx.scopeGrant.upsert({
      where: { scopeId_identityId: { scopeId: scope.id, identityId: identity.id } },
      create: { scopeId: scope.id, identityId: identity.id, access: input.access },
      update: { access: input.access },
      select: { scopeId: true, identityId: true, access: true, grantedAt: true },
    });
    if (before?.access !== input.access)
      await recordAudit(tx, actor, {
        action: "scope.grant",
        targetType: "scope",
        targetId: scope.id,
        targetLabel: scope.name,
        details: {
          identityId: identity.id,
          identity: identity.name,
          access: input.access,
          before: before?.access ?? null,
        },
      });
    return { ...grant, scopeName: scope.name, identityName: identity.name };
  });
}

export async function revokeScope(actor: Actor, raw: unknown) {
  requireGrantRole(actor);
  const input = parseInput(ZRevokeInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const grant = await tx.scopeGrant.findUnique({
      where: { scopeId_identityId: input },
      select: { access: true, scope: { select: { name: true } }, identity: { select: { name: true } } },
    });
    if (!grant) throw new DomainError("NOT_FOUND", "That Agent Identity holds no grant for this scope.");
    await tx.scopeGrant.delete({ where: { scopeId_identityId: input } });
    // A token working in a scope it can no longer read falls back to choosing one.
    await tx.agentToken.updateMany({
      where: { identityId: input.identityId, workingScopeId: input.scopeId },
      data: { workingScopeId: null },
    });
    await recordAudit(tx, actor, {
      action: "scope.revoke",
      targetType: "scope",
      targetId: input.scopeId,
      targetLabel: grant.scope.name,
      details: { identityId: input.identityId, identity: grant.identity.name, access: grant.access },
    });
    return { scopeId: input.scopeId, identityId: input.identityId, revoked: grant.access };
  });
}

/** The identities granted into a scope. */
export async function listScopeGrants(actor: Actor, raw: unknown) {
  const { scopeId } = parseInput(ZScopeIdInput, raw);
  requireRole(actor, "viewer");
  await requireScope(actor, scopeId, "read");
  const db = await getDb();
  const rows = await db.scopeGrant.findMany({
    where: { scopeId },
    orderBy: { identity: { name: "asc" } },
    select: { access: true, grantedAt: true, identity: { select: { id: true, name: true } } },
  });
  return rows.map((r) => ({
    identityId: r.identity.id,
    identityName: r.identity.name,
    access: r.access,
    grantedAt: r.grantedAt,
  }));
}

/** The scopes an identity is granted, for its page. */
export const listIdentityGrants = operation(
  { role: "viewer", input: ZIdentityGrantsInput },
  async (actor, { identityId }) => {
    const db = await getDb();
    const rows = await db.scopeGrant.findMany({
      where: { identityId, scope: scopeWhere(actor, "read") },
      orderBy: { scope: { name: "asc" } },
      select: { access: true, grantedAt: true, scope: { select: { id: true, name: true, description: true } } },
    });
    return rows.map((r) => ({
      scopeId: r.scope.id,
      scopeName: r.scope.name,
      description: r.scope.description,
      access: r.access,
      grantedAt: r.grantedAt,
    }));
  },
);
