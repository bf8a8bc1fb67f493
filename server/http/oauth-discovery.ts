/**
 * OAuth discovery for /mcp (RFC 9728 protected-resource metadata, RFC 8414 / OpenID
 * discovery, RFC 6750 challenges). Desktop clients and bridges (mcp-remote, the Inspector,
 * clients on SDK 2.x) treat every 401 as an OAuth challenge and walk these paths; an HTML
 * page anywhere on that walk ends in "Connection closed" with no reason shown. So every
 * path they try answers JSON, readable cross-origin, and the 401 names where to look.
 */
import { oauthProviderAuthServerMetadata } from "@better-auth/oauth-provider";
import { env } from "@/env";
import { baseUrl, getAuth } from "../auth";
import { AUTH_BASE_PATH, MCP_SCOPES, oauthOffered, oauthUnavailableReason } from "../auth/oauth";

export const MCP_PATH = "/mcp";
const PRM_PATH = "/.well-known/oauth-protected-resource";
const AS_PATH = "/.well-known/oauth-authorization-server";
const OIDC_PATH = "/.well-known/openid-configuration";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The origin a client reached us at, as discovery must echo it (clients refuse metadata
 * whose `resource` is not the URL they called). A configured public URL is the truth;
 * without one, a loopback address is believed as sent (any port: tests, a local start),
 * and any other Host is not: a rebound DNS name must not shape what we advertise.
 */
export function publicOrigin(request: Request): string {
  if (env.QM_BASE_URL) return new URL(env.QM_BASE_URL).origin;
  const seen = addressUsed(request);
  if (seen && LOOPBACK_HOSTS.has(seen.hostname)) return seen.origin;
  return new URL(baseUrl()).origin;
}

/** The Host the client sent: Next rewrites a route's request.url to `localhost` whatever was asked for. */
function addressUsed(request: Request): URL | null {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  if (!host) return url;
  try {
    return new URL(`${url.protocol}//${host}`);
  } catch {
    return null;
  }
}

export function resourceUrl(request: Request): string {
  return `${publicOrigin(request)}${MCP_PATH}`;
}

/**
 * The resource OAuth access tokens are bound to (RFC 8707): the configured address, one
 * for the installation, as the authorization server was built with. A client that reached
 * us by another loopback name is told that name in the metadata and is refused a token
 * for it (set QM_BASE_URL to the address clients use; docs/mcp.md).
 */
export function mcpResource(): string {
  return `${new URL(baseUrl()).origin}${MCP_PATH}`;
}

/** The authorization server's issuer: better-auth under its base path. */
export function oauthIssuer(): string {
  return `${new URL(baseUrl()).origin}${AUTH_BASE_PATH}`;
}

export function resourceMetadataUrl(request: Request): string {
  return `${publicOrigin(request)}${PRM_PATH}${MCP_PATH}`;
}

export interface BearerRefusal {
  error: "invalid_token" | "invalid_request";
  /** Shown by clients to the person; no quotes or backslashes (RFC 6750 §3). */
  description: string;
}

/** The WWW-Authenticate value of a 401 from /mcp: where the metadata is, and why, if a token was sent. */
export function bearerChallenge(request: Request, refusal?: BearerRefusal): string {
  // Without OAuth there is no metadata to name; a realm keeps the challenge well-formed.
  const parts = [
    oauthOffered(baseUrl()) ? `resource_metadata="${resourceMetadataUrl(request)}"` : `realm="Quartermaster"`,
  ];
  if (refusal) {
    const description = refusal.description.replace(/["\\]/g, "'");
    parts.push(`error="${refusal.error}"`, `error_description="${description}"`);
  }
  return `Bearer ${parts.join(", ")}`;
}

// Discovery is fetched by browser-based clients from their own origin; the documents are
// public and carry no credentials, so any origin may read them.
const CORS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...CORS, ...headers } });
}

function notHere(request: Request): string {
  return `Nothing here. This server's OAuth authorization server is ${oauthIssuer()}, described at ${publicOrigin(request)}${AS_PATH}${AUTH_BASE_PATH}; an Agent Identity's pasted token (Authorization: Bearer <token>) works too.`;
}

function protectedResourceMetadata(request: Request): Record<string, unknown> {
  return {
    resource: resourceUrl(request),
    resource_name: "Quartermaster",
    authorization_servers: [oauthIssuer()],
    scopes_supported: MCP_SCOPES.filter((scope) => scope !== "offline_access"),
    bearer_methods_supported: ["header"],
    resource_documentation: `${publicOrigin(request)}/`,
  };
}

/** Whether a path is one OAuth clients try (so it must answer JSON, never a page). */
export function isDiscoveryPath(pathname: string): boolean {
  return pathname.startsWith("/.well-known/") || ["/register", "/authorize", "/token"].includes(pathname);
}

/**
 * RFC 8414 metadata, at the path-inserted form for our issuer (`…/api/auth`) and at the
 * bare root that clients ignoring the issuer's path try; and the same document where
 * clients fall back to OpenID discovery (this server signs no one in with OpenID Connect:
 * what those clients read from it are the OAuth fields).
 */
async function serverMetadata(request: Request, pathname: string): Promise<Response | null> {
  const paths = [AS_PATH, OIDC_PATH].flatMap((path) => [path, `${path}${AUTH_BASE_PATH}`]);
  if (!paths.includes(pathname)) return null;
  const serve = oauthProviderAuthServerMetadata(await getAuth());
  const answer = await serve(new Request(request.url, { method: "GET", headers: request.headers }));
  return json(answer.status, await answer.json(), { "cache-control": "public, max-age=300" });
}

/** Every method on every discovery path: metadata where there is some, a JSON refusal elsewhere. */
export async function handleDiscovery(request: Request): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  if (!oauthOffered(baseUrl()))
    return json(
      404,
      { error: "not_found", error_description: oauthUnavailableReason(baseUrl()) },
      { "cache-control": "no-store" },
    );
  const pathname = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
  if (pathname === PRM_PATH || pathname === `${PRM_PATH}${MCP_PATH}`) {
    if (request.method !== "GET" && request.method !== "HEAD")
      return json(
        405,
        { error: "method_not_allowed", error_description: "Fetch this document with GET." },
        { allow: "GET" },
      );
    return json(200, protectedResourceMetadata(request), { "cache-control": "public, max-age=300" });
  }
  if (request.method === "GET" || request.method === "HEAD") {
    const metadata = await serverMetadata(request, pathname);
    if (metadata) return metadata;
  }
  if (pathname.startsWith(`${PRM_PATH}/`))
    return json(404, {
      error: "not_found",
      error_description: `No protected resource here: the one this server has is ${resourceUrl(request)}, described at ${resourceMetadataUrl(request)}.`,
    });
  if (pathname === "/register")
    // RFC 7591's error shape, so a client shows the description rather than a parse failure.
    return json(
      404,
      { error: "invalid_client_metadata", error_description: notHere(request) },
      { "cache-control": "no-store" },
    );
  return json(404, { error: "not_found", error_description: notHere(request) }, { "cache-control": "no-store" });
}
