/**
 * POST /mcp: MCP over Streamable HTTP, stateless (no session is kept, so any number of
 * instances serve it). A browser page from another origin is refused before anything is
 * read (DNS-rebinding and cross-site requests); the Agent Identity's bearer token decides
 * what the request may see. GET and DELETE are for sessions, which /mcp does not keep.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { trustedOrigins } from "../auth";
import { authenticateAgentToken } from "../domain/identities/tokens";
import { LIMITS } from "../limits";
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

export async function handleMcpPost(request: Request): Promise<Response> {
  if (!originAllowed(request))
    return jsonRpcErrorResponse(403, "FORBIDDEN", `Requests from ${request.headers.get("origin")} are not accepted.`);
  const token = bearerToken(request.headers.get("authorization"));
  const actor = token ? await authenticateAgentToken(token) : null;
  if (!actor)
    return jsonRpcErrorResponse(
      401,
      "UNAUTHENTICATED",
      "Send an Agent Identity's token as Authorization: Bearer <token> (Agent Identities → Tokens in the console).",
      { "www-authenticate": 'Bearer realm="quartermaster"' },
    );

  // A call in flight is abandoned (its Source exchange aborted) when the agent hangs up.
  const server = await buildMcpServer(actor, request.signal);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: LIMITS.MCP_REQUEST_BODY_BYTES.value,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close().catch(() => {});
  }
}

export function handleMcpOther(): Response {
  return jsonRpcErrorResponse(405, "METHOD_NOT_ALLOWED", "/mcp keeps no sessions: send every request as a POST.", {
    allow: "POST",
  });
}
