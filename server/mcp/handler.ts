/**
 * POST /mcp: MCP over Streamable HTTP, stateless (no session is kept, so any number of
 * instances serve it), for clients of every revision the SDK's handler serves: 2026-07-28
 * (each request carries its revision; no initialize) and, through its stateless fallback,
 * 2025-06-18 and 2025-11-25. The handler checks neither origin nor token, so both happen
 * here first: a browser page from another origin is refused before anything is read
 * (DNS rebinding, cross-site requests), and the Agent Identity's bearer token decides what
 * the request may see. GET and DELETE are for sessions, which /mcp does not keep.
 */
import { createMcpHandler } from "@modelcontextprotocol/server";
import { type Actor, actorId } from "../actor";
import { trustedOrigins } from "../auth";
import { authenticateAgentToken } from "../domain/identities/tokens";
import { LIMITS } from "../limits";
import { log } from "../log";
import { bearerToken } from "../tokens";
import { jsonRpcErrorResponse } from "./errors";
import { buildMcpServer } from "./server";

function originAllowed(request: Request): boolean {
  const origin = request.headers.get("origin");
  // Agents are not browsers: they send no Origin. A browser always does, cross-site.
  if (!origin) return true;
  if (origin === new URL(request.url).origin) return true;
  return trustedOrigins().includes(origin);
}

// One handler for the process; it builds a server per request from the identity it is given.
const handler = createMcpHandler(
  ({ authInfo, requestInfo }) => {
    const actor = authInfo?.extra?.actor as Actor | undefined;
    if (!actor) throw new Error("/mcp handler reached without an authenticated actor");
    // A call in flight is abandoned (its Source exchange aborted) when the agent hangs up.
    return buildMcpServer(actor, requestInfo?.signal ?? new AbortController().signal);
  },
  {
    legacy: "stateless",
    responseMode: "json",
    maxRequestBodySize: LIMITS.MCP_REQUEST_BODY_BYTES.value,
    onerror: (error) => log.debug({ err: error }, "/mcp request refused by the MCP handler"),
  },
);

export async function handleMcpPost(request: Request): Promise<Response> {
  if (!originAllowed(request))
    return jsonRpcErrorResponse(403, "FORBIDDEN", `Requests from ${request.headers.get("origin")} are not accepted.`);
  const token = bearerToken(request.headers.get("authorization"));
  const actor = token ? await authenticateAgentToken(token) : null;
  if (!actor || !token)
    return jsonRpcErrorResponse(
      401,
      "UNAUTHENTICATED",
      "Send an Agent Identity's token as Authorization: Bearer <token> (Agent Identities → Tokens in the console).",
      { "www-authenticate": 'Bearer realm="quartermaster"' },
    );
  return handler.fetch(request, { authInfo: { token, clientId: actorId(actor) ?? "", scopes: [], extra: { actor } } });
}

export function handleMcpOther(): Response {
  return jsonRpcErrorResponse(405, "METHOD_NOT_ALLOWED", "/mcp keeps no sessions: send every request as a POST.", {
    allow: "POST",
  });
}
