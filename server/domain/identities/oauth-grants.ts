/**
 * What the consent page shows about an authorization request: which client asks, where it
 * sends the person back, and which Agent Identities the person may let it act as.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { roleAllows } from "../../roles";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { ZIdentityIdInput, ZRevokeTokenInput } from "./schemas";

export interface AuthorizationView {
  clientName: string;
  /** The host the browser returns to with the code: shown so a look-alike name is caught. */
  redirectHost: string;
  /**
   * For a client known by its metadata document (decision 0080), the host that publishes it:
   * the name and redirect URIs are that host's word, so it is shown beside them.
   */
  documentHost: string | null;
  mayApprove: boolean;
  identities: { id: string; name: string }[];
}

export async function describeAuthorization(
  actor: Extract<Actor, { kind: "user" }>,
  clientId: string,
  redirectUri: string,
): Promise<AuthorizationView | null> {
  const db = await getDb();
  const client = await db.oauthClient.findUnique({
    where: { clientId },
    select: { name: true, disabled: true, clientDiscoveryId: true },
  });
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
  const documentHost = client.clientDiscoveryId && URL.canParse(clientId) ? new URL(clientId).host : null;
  return { clientName: client.name?.trim() || "An unnamed client", redirectHost, documentHost, mayApprove, identities };
}

/**
 * An identity's OAuth grants, as its Tokens tab shows them beside pasted tokens: one per
 * client and approving person (the library's consent row), with the latest token issued.
 */
export const listOAuthGrants = operation({ role: "viewer", input: ZIdentityIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  const consents = await db.oauthConsent.findMany({
    where: { referenceId: id },
    select: { id: true, clientId: true, userId: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
  const clientIds = [...new Set(consents.map((c) => c.clientId))];
  const userIds = [...new Set(consents.flatMap((c) => (c.userId ? [c.userId] : [])))];
  const [clients, users, latest] = await Promise.all([
    db.oauthClient.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, name: true } }),
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    db.oauthAccessToken.groupBy({
      by: ["clientId"],
      where: { referenceId: id, clientId: { in: clientIds } },
      _max: { createdAt: true, lastUsedAt: true },
    }),
  ]);
  return consents.map((c) => ({
    id: c.id,
    clientName: clients.find((x) => x.clientId === c.clientId)?.name?.trim() || "An unnamed client",
    approvedBy: users.find((u) => u.id === c.userId)?.email ?? null,
    approvedAt: c.createdAt,
    lastTokenAt: latest.find((l) => l.clientId === c.clientId)?._max.createdAt ?? null,
    /** When /mcp last accepted one of its tokens (to the minute); null if never. */
    lastUsedAt: latest.find((l) => l.clientId === c.clientId)?._max.lastUsedAt ?? null,
  }));
});

/** Revokes a grant: its consent and every token it issued, so /mcp refuses them at once. */
export const revokeOAuthGrant = operation({ role: "operator", input: ZRevokeTokenInput }, async (actor, { id }) => {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const consent = await tx.oauthConsent.findUnique({
      where: { id },
      select: { id: true, clientId: true, referenceId: true },
    });
    if (!consent?.referenceId) throw notFound("OAuth grant");
    const identity = await tx.agentIdentity.findUnique({
      where: { id: consent.referenceId },
      select: { id: true, name: true },
    });
    const match = { clientId: consent.clientId, referenceId: consent.referenceId };
    await tx.oauthAccessToken.deleteMany({ where: match });
    await tx.oauthRefreshToken.deleteMany({ where: match });
    await tx.oauthConsent.delete({ where: { id } });
    const client = await tx.oauthClient.findUnique({ where: { clientId: consent.clientId }, select: { name: true } });
    await recordAudit(tx, actor, {
      action: "identity.revoke_oauth_grant",
      targetType: "identity",
      targetId: consent.referenceId,
      targetLabel: identity?.name ?? null,
      details: { clientId: consent.clientId, clientName: client?.name ?? null },
    });
    return { id };
  });
});
