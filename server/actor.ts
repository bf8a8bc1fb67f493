/**
 * Who is acting. Each transport builds one (console session, API key, agent token,
 * SDK Tool Host token, or the system itself) and hands it to domain functions, which
 * authorize and audit with it.
 */
import "server-only";
import { DomainError } from "./errors";
import { type Role, roleAllows } from "./roles";

export type Actor =
  | { kind: "user"; id: string; email: string; name: string; role: Role; sessionId?: string }
  | { kind: "api_key"; id: string; name: string; role: Role }
  | { kind: "agent"; identityId: string; tokenId: string; label: string; call?: ToolCallContext }
  | { kind: "tool_host"; sourceId: string; label: string }
  | { kind: "system"; label: string };

/**
 * The Tool Call an agent acts within (set by /mcp around a tools/call): its call log id, and
 * the MCP client that made it when the request or the token's initialize said so.
 */
export interface ToolCallContext {
  id: string;
  client: { name: string; version: string } | null;
}

export const SYSTEM: Actor = { kind: "system", label: "Quartermaster" };

export function actorRole(actor: Actor): Role | null {
  return actor.kind === "user" || actor.kind === "api_key" ? actor.role : null;
}

/** Throws FORBIDDEN unless the actor is a person or key whose role allows `required`. */
export function requireRole(actor: Actor, required: Role): void {
  if (actor.kind === "system") return;
  const role = actorRole(actor);
  if (!role || !roleAllows(role, required)) {
    throw new DomainError("FORBIDDEN", `This action needs the ${required} role${role ? `; you are ${role}` : ""}.`);
  }
}

export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case "user":
      return actor.email;
    case "api_key":
      return `API key "${actor.name}"`;
    default:
      return actor.label;
  }
}

export function actorId(actor: Actor): string | null {
  switch (actor.kind) {
    case "user":
    case "api_key":
      return actor.id;
    case "agent":
      return actor.identityId;
    case "tool_host":
      return actor.sourceId;
    default:
      return null;
  }
}
