/**
 * The one access policy for memory, for every transport: console users and API keys by
 * role (curator and admin write, every role reads), Agent Identities only by an explicit
 * grant per scope (read or write), the system everywhere. Every memory query is built on
 * `scopeWhere` and `memoryVisible`, and every write goes through `requireScope`: no procedure
 * decides for itself.
 *
 * Within a scope, one more rule: an agent's write to a scope under review (`agentWrites:
 * review`) is quarantined, seen only by the identity that wrote it and by curators until a
 * curator admits it (decision 0090). Every reader of memories, facts, thread members and
 * handoffs filters by `memoryVisible` (Prisma) or `visibleMemorySql` (raw SQL).
 */
import { type Actor, actorRole } from "../../actor";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { roleAllows } from "../../roles";

export type ScopeNeed = "read" | "write";

/** Whether the actor's role (if it has one) reaches scopes at all, for `need`. */
function roleReaches(actor: Actor, need: ScopeNeed): boolean | null {
  const role = actorRole(actor);
  if (!role) return null;
  return need === "read" ? roleAllows(role, "viewer") : roleAllows(role, "curator");
}

/**
 * Who may grant (or revoke) an Agent Identity's access to a scope: grants are identity
 * administration as much as memory curation, so a curator or an operator; never an agent.
 */
export function requireGrantRole(actor: Actor): void {
  if (actor.kind === "system") return;
  const role = actorRole(actor);
  if (role && (roleAllows(role, "curator") || roleAllows(role, "operator"))) return;
  throw new DomainError(
    "FORBIDDEN",
    `Granting scopes needs the curator or operator role${role ? `; you are ${role}` : ""}.`,
  );
}

/** The scopes the actor may read (or write): the filter every scope-bound query starts from. */
export function scopeWhere(actor: Actor, need: ScopeNeed): Prisma.ScopeWhereInput {
  if (actor.kind === "system") return {};
  if (actor.kind === "agent") {
    const access = need === "read" ? { in: ["read" as const, "write" as const] } : ("write" as const);
    return { grants: { some: { identityId: actor.identityId, access } } };
  }
  // Roles reach every scope or none; `id: { in: [] }` matches nothing.
  return roleReaches(actor, need) ? {} : { id: { in: [] } };
}

/**
 * Who sees quarantined memories besides their writer: curators (the role that admits them,
 * and admins) and the system. Never an Agent Identity, whatever its grant: an agent's say
 * is what the quarantine holds back.
 */
export function seesQuarantine(actor: Actor): boolean {
  if (actor.kind === "system") return true;
  const role = actorRole(actor);
  return role !== null && roleAllows(role, "curator");
}

/** The memories of a scope the actor may see: all but others' quarantined writes. */
export function memoryVisible(actor: Actor): Prisma.MemoryWhereInput {
  if (seesQuarantine(actor)) return {};
  if (actor.kind === "agent")
    return { OR: [{ quarantined: false }, { authorType: "agent", authorId: actor.identityId }] };
  return { quarantined: false };
}

/**
 * The same rule as a SQL condition on the memory row `alias`, for the raw statements of
 * search; `arg` binds a parameter and returns its placeholder.
 */
export function visibleMemorySql(actor: Actor, alias: string, arg: (value: unknown) => string): string | null {
  if (seesQuarantine(actor)) return null;
  if (actor.kind === "agent")
    return `(NOT ${alias}.quarantined OR (${alias}."authorType" = 'agent' AND ${alias}."authorId" = ${arg(actor.identityId)}))`;
  return `NOT ${alias}.quarantined`;
}

/**
 * Proposals the actor may see: an `admit` proposal is a curator's to decide, and names a
 * memory only its writer and curators see, so it is listed to curators only.
 */
export function proposalVisible(actor: Actor): Prisma.ProposalWhereInput {
  return seesQuarantine(actor) ? {} : { kind: { not: "admit" } };
}

/** Memories in scopes the actor may read (or write), and that it may see. */
export function memoryWhere(actor: Actor, need: ScopeNeed): Prisma.MemoryWhereInput {
  return { scope: scopeWhere(actor, need), ...memoryVisible(actor) };
}

export interface ScopeRef {
  id: string;
  name: string;
}

/**
 * What an agent may use instead, named in its refusal: the scopes it holds a grant for (all it
 * may learn about scopes), and how to pick one.
 */
async function grantedScopes(identityId: string, need: ScopeNeed, db: Tx): Promise<string> {
  const grants = await db.scopeGrant.findMany({
    where: { identityId, ...(need === "write" ? { access: "write" as const } : {}) },
    select: { access: true, scope: { select: { name: true } } },
    orderBy: { scope: { name: "asc" } },
    take: 20,
  });
  if (!grants.length)
    return need === "write"
      ? "It holds no write grant for any scope; an operator grants scopes on the identity's page."
      : "It holds no grant for any scope; an operator grants scopes on the identity's page.";
  const names = grants.map((g) => `"${g.scope.name}"${need === "read" ? ` (${g.access})` : ""}`).join(", ");
  return `Scopes it may ${need === "write" ? "write to" : "read"}: ${names}. Name one as scope, or call configure_scope to work in one; an operator grants others on the identity's page.`;
}

// Inside a caller's transaction the hint is left out: the refusal must not add work to it.
// `name` is null for a scope the caller may no longer read: a refusal never names one.
async function denied(actor: Actor, need: ScopeNeed, name: string | null, db: Tx | null): Promise<DomainError> {
  const which = name === null ? "its working scope (set with configure_scope)" : `scope "${name}"`;
  if (actor.kind === "agent")
    return new DomainError(
      "SCOPE_ACCESS_DENIED",
      `This Agent Identity holds no ${need === "write" ? "write" : "read"} grant for ${which}. ${db ? await grantedScopes(actor.identityId, need, db) : "An operator grants scopes on the identity's page."}`,
      name === null ? { need } : { scope: name, need },
    );
  const role = actorRole(actor);
  return new DomainError(
    "SCOPE_ACCESS_DENIED",
    `${need === "write" ? "Writing to" : "Reading"} ${which} needs the ${need === "write" ? "curator" : "viewer"} role${role ? `; you are ${role}` : ""}.`,
    name === null ? { need } : { scope: name, need },
  );
}

/**
 * The scope of something found by id, for the actor: one it may not read answers `notFound`,
 * exactly as an id that does not exist (its existence, and its scope's name, are not the
 * caller's to know); one it reads but may not write is refused naming the grant it lacks.
 */
async function requireReadable(
  actor: Actor,
  scope: ScopeRef | null,
  need: ScopeNeed,
  notFound: () => DomainError,
  db: Tx,
  inCallerTx: boolean,
): Promise<ScopeRef> {
  if (!scope || !(await mayUse(actor, scope.id, "read", db))) throw notFound();
  if (need === "write" && !(await mayUse(actor, scope.id, "write", db)))
    throw await denied(actor, "write", scope.name, inCallerTx ? null : db);
  return scope;
}

const scopeNotFound = () => new DomainError("NOT_FOUND", "Scope was not found.", { field: "scopeId" });

/**
 * The scope, if the actor may read (or write) it; NOT_FOUND when it does not exist or the
 * actor may not read it, SCOPE_ACCESS_DENIED when it reads but may not write it. Pass a
 * transaction to check inside it.
 */
export async function requireScope(actor: Actor, scopeId: string, need: ScopeNeed, tx?: Tx): Promise<ScopeRef> {
  const db = tx ?? (await getDb());
  const scope = await db.scope.findUnique({ where: { id: scopeId }, select: { id: true, name: true } });
  return requireReadable(actor, scope, need, scopeNotFound, db, Boolean(tx));
}

/**
 * A row's scope, by the row's own scope id: `notFound` (the same error a missing row gets)
 * unless the actor may read it. For proposals, threads and anything else loaded by id.
 */
export async function requireScopeOf(
  actor: Actor,
  scopeId: string,
  need: ScopeNeed,
  notFound: () => DomainError,
  tx?: Tx,
): Promise<ScopeRef> {
  const db = tx ?? (await getDb());
  const scope = await db.scope.findUnique({ where: { id: scopeId }, select: { id: true, name: true } });
  return requireReadable(actor, scope, need, notFound, db, Boolean(tx));
}

/**
 * An agent's working scope (stored by configure_scope), under the same rule; a grant revoked
 * since refuses the call without naming the scope. Null when the scope is gone.
 */
export async function requireWorkingScope(actor: Actor, scopeId: string, need: ScopeNeed): Promise<ScopeRef | null> {
  const db = await getDb();
  const scope = await db.scope.findUnique({ where: { id: scopeId }, select: { id: true, name: true } });
  if (!scope) return null;
  if (!(await mayUse(actor, scope.id, "read", db))) throw await denied(actor, need, null, db);
  if (!(await mayUse(actor, scope.id, need, db))) throw await denied(actor, need, scope.name, db);
  return scope;
}

/** The scope of that name, under the same rule as requireScope (agents name scopes). */
export async function requireScopeNamed(actor: Actor, name: string, need: ScopeNeed): Promise<ScopeRef> {
  const db = await getDb();
  const scope = await db.scope.findUnique({ where: { name }, select: { id: true, name: true } });
  // An agent learns nothing about scopes it holds no grant for, not even whether they exist:
  // the name it gave comes back, refused the same way whether the scope exists or not.
  if (!scope) {
    if (actor.kind === "agent") throw await denied(actor, need, name, db);
    throw new DomainError("NOT_FOUND", `No scope is named "${name}".`, { field: "scope" });
  }
  if (!(await mayUse(actor, scope.id, need, db))) throw await denied(actor, need, scope.name, db);
  return scope;
}

async function mayUse(actor: Actor, scopeId: string, need: ScopeNeed, db: Tx): Promise<boolean> {
  const where = scopeWhere(actor, need);
  if (Object.keys(where).length === 0) return true;
  return (await db.scope.count({ where: { AND: [{ id: scopeId }, where] } })) > 0;
}

/** The memory's scope, checked like requireScope; NOT_FOUND when the memory is not there to see. */
export async function requireMemoryScope(
  actor: Actor,
  memoryId: string,
  need: ScopeNeed,
  tx?: Tx,
): Promise<ScopeRef & { memoryId: string }> {
  const db = tx ?? (await getDb());
  // A quarantined memory the actor may not see answers exactly as one that does not exist.
  const row = await db.memory.findFirst({
    where: { AND: [{ id: memoryId }, memoryVisible(actor)] },
    select: { id: true, scope: { select: { id: true, name: true } } },
  });
  const notFound = () => new DomainError("NOT_FOUND", `Memory ${memoryId} was not found.`, { field: "id" });
  const scope = await requireReadable(actor, row?.scope ?? null, need, notFound, db, Boolean(tx));
  return { ...scope, memoryId };
}
