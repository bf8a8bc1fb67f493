/**
 * The OAuth 2.1 authorization server for /mcp: better-auth's MCP profile of its OAuth
 * provider (docs/decisions/0071-oauth-authorization-server.md). The grant's `referenceId`
 * is the Agent Identity the person chose; /mcp turns an access token into that identity.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { mcp } from "@better-auth/mcp";
import { APIError } from "better-auth/api";
import { LIMITS } from "../limits";
import { type Role, roleAllows } from "../roles";
import { hashToken } from "../tokens";
import { clientMetadataDiscovery } from "./client-metadata-document";

/** Where better-auth is mounted; the issuer is the base URL plus this. */
export const AUTH_BASE_PATH = "/api/auth";
/** The page that asks which Agent Identity the client acts as (post-login step). */
export const CHOOSE_IDENTITY_PAGE = "/oauth/identity";
export const CONSENT_PAGE = "/oauth/consent";

export const OPERATOR_ONLY =
  "Only an operator (or an admin) may connect an agent: ask one to approve this client, or to give you the operator role.";

/** The one scope /mcp knows: acting as the chosen identity. Refresh tokens come with offline_access. */
export const MCP_SCOPES = ["mcp", "offline_access"];

/**
 * The Agent Identity chosen on our approval page, for the library steps that approval runs
 * (oauth-approve.ts). Held by the approving request's own async context, not by the session:
 * two tabs of one session approving two requests at once each act as the identity chosen in
 * that tab (decision 0081). The library's own endpoints, reached by a browser directly, run
 * outside it and find no choice.
 */
const CHOICE_KEY = Symbol.for("quartermaster.oauth-approval-choice");
// One store per process, not per module copy: Next bundles each route with its own copy of
// this file, and the auth instance (built by whichever route came first, kept on globalThis
// by getAuth) must read the store the approval route writes.
const holder = globalThis as { [CHOICE_KEY]?: AsyncLocalStorage<string> };
holder[CHOICE_KEY] ??= new AsyncLocalStorage<string>();
const approvalChoice = holder[CHOICE_KEY];

export function withChosenIdentity<T>(identityId: string, run: () => Promise<T>): Promise<T> {
  return approvalChoice.run(identityId, run);
}

export function mayApprove(user: Record<string, unknown>): boolean {
  return roleAllows((user.role as Role | undefined) ?? "viewer", "operator");
}

function chosenIdentity(user: Record<string, unknown>): string {
  if (!mayApprove(user)) throw new APIError("FORBIDDEN", { message: OPERATOR_ONLY });
  const chosen = approvalChoice.getStore();
  if (!chosen) throw new APIError("BAD_REQUEST", { message: "Choose the Agent Identity this client acts as first." });
  return chosen;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether agents can sign in with OAuth at this address. OAuth 2.1 (and the MCP profile the
 * library enforces) allows plain HTTP only on loopback: an installation served at an
 * `http://` address elsewhere keeps its console and pasted tokens, and offers no OAuth
 * rather than failing to start (docs/mcp.md says to put TLS in front).
 */
export function oauthOffered(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

export function oauthUnavailableReason(baseUrl: string): string {
  return `OAuth sign-in is off: this server's address (${new URL(baseUrl).origin}) is plain HTTP on a non-loopback host, and OAuth needs HTTPS there. Serve Quartermaster over HTTPS (QM_BASE_URL=https://…), or send an Agent Identity's token as Authorization: Bearer <token>.`;
}

export function mcpOAuthPlugin(baseUrl: string) {
  return mcp({
    resource: `${new URL(baseUrl).origin}/mcp`,
    loginPage: "/sign-in",
    consentPage: CONSENT_PAGE,
    // Opaque tokens looked up by hash: a revocation in the console holds at once, which a
    // signed JWT would not until it expired (decision 0071).
    disableJwtPlugin: true,
    storeTokens: { hash: async (token) => hashToken(token) },
    scopes: MCP_SCOPES,
    clientRegistrationDefaultScopes: MCP_SCOPES,
    clientRegistrationAllowedScopes: MCP_SCOPES,
    accessTokenExpiresIn: LIMITS.OAUTH_ACCESS_TOKEN_SECONDS.value,
    refreshTokenExpiresIn: LIMITS.OAUTH_REFRESH_TOKEN_SECONDS.value,
    codeExpiresIn: LIMITS.OAUTH_CODE_SECONDS.value,
    // Strict rotation: a refresh token used twice revokes its whole grant (the MCP profile's
    // 30-second grace would let a stolen one be replayed inside it).
    refreshTokenReuseInterval: 0,
    // Dynamic client registration (RFC 7591) is how most MCP clients register today; it is
    // open (no session) because a client registers before anyone has signed in. What a
    // registered client can do is nothing until an operator consents for an identity.
    allowDynamicClientRegistration: true,
    allowUnauthenticatedClientRegistration: true,
    // Client ID Metadata Documents: an https client_id is resolved from the document at that
    // URL, fetched through the Connections' guard (client-metadata-document.ts, decision 0080).
    extensions: [{ clientDiscovery: clientMetadataDiscovery() }],
    postLogin: {
      page: CHOOSE_IDENTITY_PAGE,
      // Every authorization asks (the choice of identity is the point of the consent),
      // unless the person has just chosen on our page and the library is continuing.
      shouldRedirect: async () => approvalChoice.getStore() === undefined,
      consentReferenceId: async ({ user }) => chosenIdentity(user),
    },
    prefix: { opaqueAccessToken: "qm_oat_", refreshToken: "qm_ort_" },
  });
}
