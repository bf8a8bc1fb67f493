/**
 * The scope an agent works in. /mcp keeps no session, so `configure_scope` stores the choice
 * on the agent's token (agent_token.workingScopeId): every later request with that token,
 * on any instance, starts there. A call that names a scope uses that one instead; either
 * way the access policy (access.ts) decides, so a grant revoked after configure_scope
 * refuses the next call.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { requireScopeNamed, requireWorkingScope, type ScopeNeed, type ScopeRef } from "./access";

export interface GrantedScope {
  name: string;
  access: "read" | "write";
}

function agentOf(actor: Actor) {
  if (actor.kind !== "agent") throw new DomainError("FORBIDDEN", "Only an Agent Identity's token has a working scope.");
  return actor;
}

/** Scopes the identity holds a grant for, by name. */
export async function grantedScopes(actor: Actor): Promise<GrantedScope[]> {
  const agent = agentOf(actor);
  const db = await getDb();
  const grants = await db.scopeGrant.findMany({
    where: { identityId: agent.identityId },
    orderBy: { scope: { name: "asc" } },
    select: { access: true, scope: { select: { name: true } } },
  });
  return grants.map((g) => ({ name: g.scope.name, access: g.access }));
}

/**
 * The scope a call works in: the one it names, else the token's working scope, else the
 * identity's only granted scope. Anything else is a refusal saying what to do.
 */
export async function resolveScope(actor: Actor, named: string | undefined, need: ScopeNeed): Promise<ScopeRef> {
  if (named) return requireScopeNamed(actor, named, need);
  const agent = agentOf(actor);
  const db = await getDb();
  const token = await db.agentToken.findUnique({ where: { id: agent.tokenId }, select: { workingScopeId: true } });
  const working = token?.workingScopeId ? await requireWorkingScope(actor, token.workingScopeId, need) : null;
  if (working) return working;
  const granted = await grantedScopes(actor);
  if (granted.length === 1) return requireScopeNamed(actor, (granted[0] as GrantedScope).name, need);
  throw new DomainError(
    "INVALID_INPUT",
    granted.length
      ? `scope: no working scope is set. Call configure_scope with one of ${granted.map((g) => `"${g.name}"`).join(", ")}, or name the scope in this call.`
      : "scope: this Agent Identity holds no grant for any scope. An operator grants scopes on the identity's page.",
    { field: "scope", granted: granted.map((g) => g.name) },
  );
}

/** configure_scope: checks the grant, then remembers the scope on the token. */
export async function setWorkingScope(actor: Actor, name: string) {
  const agent = agentOf(actor);
  const scope = await requireScopeNamed(actor, name, "read");
  const db = await getDb();
  const before = await db.agentToken.findUnique({
    where: { id: agent.tokenId },
    select: { workingScopeId: true },
  });
  await db.agentToken.update({ where: { id: agent.tokenId }, data: { workingScopeId: scope.id } });
  const previous = before?.workingScopeId
    ? await db.scope.findUnique({ where: { id: before.workingScopeId }, select: { name: true } })
    : null;
  const granted = await grantedScopes(actor);
  return {
    scope: scope.name,
    access: granted.find((g) => g.name === scope.name)?.access ?? "read",
    // A previous scope whose grant was revoked since is not named.
    previous: previous && granted.some((g) => g.name === previous.name) ? previous.name : null,
    granted,
  };
}

/** The token's working scope (null when unset or gone) and every granted scope. */
export async function describeWorkingScope(actor: Actor) {
  const agent = agentOf(actor);
  const db = await getDb();
  const token = await db.agentToken.findUnique({
    where: { id: agent.tokenId },
    select: { workingScopeId: true },
  });
  const scope = token?.workingScopeId
    ? await db.scope.findUnique({ where: { id: token.workingScopeId }, select: { name: true } })
    : null;
  const granted = await grantedScopes(actor);
  const current = scope && granted.find((g) => g.name === scope.name);
  return { scope: current ? current.name : null, access: current ? current.access : null, previous: null, granted };
}

/** A thread of the scope by name (agents name threads; the console passes ids). */
export async function threadIdNamed(scope: ScopeRef, name: string): Promise<string> {
  const db = await getDb();
  const thread = await db.thread.findUnique({
    where: { scopeId_name: { scopeId: scope.id, name } },
    select: { id: true },
  });
  if (!thread)
    throw new DomainError("NOT_FOUND", `thread: scope "${scope.name}" has no thread named "${name}".`, {
      field: "thread",
    });
  return thread.id;
}
