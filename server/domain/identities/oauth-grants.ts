/**
 * What the consent page shows about an authorization request: which client asks, where it
 * sends the person back, and which Agent Identities the person may let it act as.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { roleAllows } from "../../roles";

export interface AuthorizationView {
  clientName: string;
  /** The host the browser returns to with the code: shown so a look-alike name is caught. */
  redirectHost: string;
  mayApprove: boolean;
  identities: { id: string; name: string }[];
}

export async function describeAuthorization(
  actor: Extract<Actor, { kind: "user" }>,
  clientId: string,
  redirectUri: string,
): Promise<AuthorizationView | null> {
  const db = await getDb();
  const client = await db.oauthClient.findUnique({ where: { clientId }, select: { name: true, disabled: true } });
  if (!client || client.disabled) return null;
  let redirectHost = "";
  try {
    redirectHost = new URL(redirectUri).host;
  } catch {
    return null;
  }
  const mayApprove = roleAllows(actor.role, "operator");
  const identities = mayApprove
    ? await db.agentIdentity.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } })
    : [];
  return { clientName: client.name?.trim() || "An unnamed client", redirectHost, mayApprove, identities };
}
