/**
 * OAuth discovery for /mcp (RFC 9728 protected-resource metadata, RFC 8414 / OpenID
 * discovery, RFC 6750 challenges). Desktop clients and bridges (mcp-remote, the Inspector,
 * clients on SDK 2.x) treat every 401 as an OAuth challenge and walk these paths; an HTML
 * page anywhere on that walk ends in "Connection closed" with no reason shown. So every
 * path they try answers JSON, readable cross-origin, and the 401 names where to look.
 */
import { env } from "@/env";
import { baseUrl } from "../auth";

export const MCP_PATH = "/mcp";
const PRM_PATH = "/.well-known/oauth-protected-resource";

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
  const parts = [`resource_metadata="${resourceMetadataUrl(request)}"`];
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

const NO_OAUTH =
  "Quartermaster does not offer OAuth sign-in at this address. Send an Agent Identity's token as Authorization: Bearer <token> (Agent Identities, then Tokens, in the console).";

function protectedResourceMetadata(request: Request): Record<string, unknown> {
  return {
    resource: resourceUrl(request),
    resource_name: "Quartermaster",
    bearer_methods_supported: ["header"],
    resource_documentation: `${publicOrigin(request)}/`,
  };
}

/** Whether a path is one OAuth clients try (so it must answer JSON, never a page). */
export function isDiscoveryPath(pathname: string): boolean {
  return pathname.startsWith("/.well-known/") || ["/register", "/authorize", "/token"].includes(pathname);
}

/** Every method on every discovery path: metadata where there is some, a JSON refusal elsewhere. */
export function handleDiscovery(request: Request): Response {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
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
  if (pathname.startsWith(`${PRM_PATH}/`))
    return json(404, {
      error: "not_found",
      error_description: `No protected resource here: the one this server has is ${resourceUrl(request)}, described at ${resourceMetadataUrl(request)}.`,
    });
  if (pathname === "/register")
    // RFC 7591's error shape, so a client shows the description rather than a parse failure.
    return json(
      404,
      { error: "invalid_client_metadata", error_description: NO_OAUTH },
      { "cache-control": "no-store" },
    );
  return json(404, { error: "not_found", error_description: NO_OAUTH }, { "cache-control": "no-store" });
}
