/**
 * POST /mcp: MCP over Streamable HTTP, stateless (no session is kept, so any number of
 * instances serve it), for clients of every revision the SDK's handler serves: 2026-07-28
 * (each request carries its revision; no initialize) and, through its stateless fallback,
 * 2025-06-18 and 2025-11-25. The handler checks neither origin nor token, so both happen
 * here first: a browser page from another origin is refused before anything is read
 * (DNS rebinding, cross-site requests), and the Agent Identity's bearer token decides what
 * the request may see. GET and DELETE are for sessions, which /mcp does not keep.
 */

import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { fmtBytes } from "@/universal/format";
import { type Actor, actorId } from "../actor";
import { trustedOrigins } from "../auth";
import { type ClientOf, clientOfMessage, rememberTokenClient, requestClient } from "../domain/agent-tools/mcp-client";
import { authenticateOAuthAccessToken, isOAuthAccessToken } from "../domain/identities/oauth-tokens";
import { authenticateAgentToken } from "../domain/identities/tokens";
import { DomainError } from "../errors";
import { bodyTooLarge } from "../http/body-limits";
import { type BearerRefusal, bearerChallenge, mcpResource } from "../http/oauth-discovery";
import { LIMITS } from "../limits";
import { log } from "../log";
import { observeMcpRequest } from "../observability/mcp-request";
import { annotateSpan } from "../observability/tracing";
import { bearerToken } from "../tokens";
import { inRevision2025Codes, jsonRpcErrorResponse } from "./errors";
import { acceptAnswers, answersIn, carryQuestions, sessionAsksByForm, sessionIdFor } from "./in-band";
import { legacyRevision, SERVED_REVISIONS } from "./revisions";
import { buildMcpServer } from "./server";

const INSTRUCTED = new Set(["initialize", "server/discover"]);

function originAllowed(request: Request): boolean {
  const origin = request.headers.get("origin");
  // Agents are not browsers: they send no Origin. A browser always does, cross-site. The
  // request's own Host is not trusted for this: a rebound DNS name makes a hostile page
  // "same-origin" with whatever address it now points at.
  if (!origin) return true;
  return trustedOrigins().includes(origin);
}

function serverFor(authInfo: AuthInfo | undefined, request: Request | undefined, revision: string, asksInBand = false) {
  const actor = authInfo?.extra?.actor as Actor | undefined;
  if (!actor) throw new Error("/mcp handler reached without an authenticated actor");
  // A call in flight is abandoned (its Source exchange aborted) when the agent hangs up.
  return buildMcpServer(actor, request?.signal ?? new AbortController().signal, revision, {
    instructions: authInfo?.extra?.instructions !== false,
    client: authInfo?.extra?.client as ClientOf | undefined,
    asksInBand,
  });
}

// 2026-07-28 requests: the SDK's handler, one for the process; it builds a server per
// request from the identity it is given.
// (Answers are JSON unless a handler sends a message before its result: its default mode
// then streams, which is how a call's notifications/progress reach the agent.)
const modern = createMcpHandler(({ authInfo, requestInfo }) => serverFor(authInfo, requestInfo, SERVED_REVISIONS[0]), {
  legacy: "reject",
  maxRequestBodySize: LIMITS.MCP_REQUEST_BODY_BYTES.value,
  onerror: (error) => log.debug({ err: error }, "/mcp request refused by the MCP handler"),
});

/**
 * 2025-era requests (no revision in `_meta`), statelessly: a server and a transport per
 * request, answering in JSON rather than the SDK fallback's event stream (one answer per
 * request needs no stream, and curl and simple clients read JSON) — except a tools/call of
 * a client that declared form elicitation (its session id says so, in-band.ts): that one
 * streams, so a Tool under `confirm` can ask its user on it and wait for the answer.
 */
async function legacy(request: Request, parsedBody: unknown, authInfo: AuthInfo): Promise<Response> {
  const revision = legacyRevision(request, parsedBody);
  const identityId = identityOf(authInfo);
  const method = (parsedBody as { method?: unknown } | null)?.method;
  const asks = method === "tools/call" && !!identityId && sessionAsksByForm(request, identityId);
  const server = await serverFor(authInfo, request, revision, asks);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    // A call whose agent asked for progress answers on an event stream, which carries the
    // notifications/progress before the result (JSON would drop them); so does one that may
    // ask its user to confirm.
    enableJsonResponse: !asks && !asksForProgress(parsedBody),
  });
  await server.connect(transport);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(inRevision2025Codes(message), options);
  if (asks && identityId) carryQuestions(transport, identityId, request.signal);
  // Not closed after: in JSON mode the answer is complete when handleRequest resolves, so
  // nothing is left in flight to abort, and closing built an Error (a stack trace) per
  // request only to drop it. Server and transport go with the garbage.
  const response = await transport.handleRequest(request, { parsedBody, authInfo });
  const sessionId = method === "initialize" && identityId ? sessionIdFor(identityId, revision, parsedBody) : null;
  if (sessionId && response.ok) response.headers.set("mcp-session-id", sessionId);
  return response;
}

function identityOf(authInfo: AuthInfo): string | undefined {
  const actor = authInfo.extra?.actor as Actor | undefined;
  return actor?.kind === "agent" ? actor.identityId : undefined;
}

function asksForProgress(parsedBody: unknown): boolean {
  const message = parsedBody as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } } | null;
  const token = message?.method === "tools/call" ? message.params?._meta?.progressToken : undefined;
  return typeof token === "string" || typeof token === "number";
}

/** The body as text, refused past the limit without reading further (the front checks it too). */
async function readBody(request: Request): Promise<string | null> {
  const limit = LIMITS.MCP_REQUEST_BODY_BYTES.value;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return null;
  if (Number.isFinite(declared)) {
    const text = await request.text();
    return Buffer.byteLength(text) > limit ? null : text;
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of (request.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (bytes > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const SEND_A_TOKEN =
  "Sign in with OAuth (the resource metadata names the authorization server), or send an Agent Identity's token as Authorization: Bearer <token> (Agent Identities → Tokens in the console).";

/**
 * A 401 every OAuth client can act on (RFC 6750, RFC 9728): where the resource metadata is,
 * and, when credentials were sent, that they were refused and why.
 */
function unauthenticated(request: Request, authorization: string | null, token: string | null): Response {
  if (!authorization)
    return jsonRpcErrorResponse(new DomainError("UNAUTHENTICATED", `No token was sent. ${SEND_A_TOKEN}`), {
      "www-authenticate": bearerChallenge(request),
    });
  const refusal: BearerRefusal = token
    ? {
        error: "invalid_token",
        description: "The token is not valid here: it is unknown or has been revoked.",
      }
    : { error: "invalid_request", description: "The Authorization header is not of the form Bearer <token>." };
  return jsonRpcErrorResponse(new DomainError("UNAUTHENTICATED", `${refusal.description} ${SEND_A_TOKEN}`), {
    "www-authenticate": bearerChallenge(request, refusal),
  });
}

/** Pasted agent tokens by their own path; OAuth access tokens by theirs (prefix `qm_oat_`). */
function authenticate(token: string): Promise<Actor | null> {
  return isOAuthAccessToken(token) ? authenticateOAuthAccessToken(token, mcpResource()) : authenticateAgentToken(token);
}

export function handleMcpPost(request: Request): Promise<Response> {
  return observeMcpRequest(request, () => answerMcpPost(request, undefined));
}

/**
 * The same, for a front server that has read the body already (server/http/mcp-direct.ts):
 * `request` carries the headers only, so the body is not copied into a web stream to be
 * read back out of it.
 */
export function handleMcpPostRead(request: Request, body: Buffer): Promise<Response> {
  return observeMcpRequest(request, () => answerMcpPost(request, body));
}

async function answerMcpPost(request: Request, body: Buffer | undefined): Promise<Response> {
  if (!originAllowed(request))
    return jsonRpcErrorResponse(
      new DomainError("FORBIDDEN", `Requests from ${request.headers.get("origin")} are not accepted.`),
    );
  const authorization = request.headers.get("authorization");
  const token = bearerToken(authorization);
  const actor = token ? await authenticate(token) : null;
  if (!actor || !token) return unauthenticated(request, authorization, token);
  // Read and parsed once, here: the SDK reading the body itself cost more than the rest of a
  // ping (docs/decisions/0015). JSON.parse does not recurse, so depth is checked later, by
  // the domain functions, before anything serializes the values.
  const text =
    body === undefined
      ? await readBody(request)
      : body.byteLength > LIMITS.MCP_REQUEST_BODY_BYTES.value
        ? null
        : body.toString("utf8");
  if (text === null)
    return jsonRpcErrorResponse(
      bodyTooLarge(
        "a request to /mcp",
        LIMITS.MCP_REQUEST_BODY_BYTES.value,
        `over ${fmtBytes(LIMITS.MCP_REQUEST_BODY_BYTES.value)}`,
        "MCP_REQUEST_BODY_BYTES",
      ),
    );
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(text);
  } catch {
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON." }, id: null },
      { status: 400 },
    );
  }
  // "[]" holds no message: the SDK would accept it (202) as if it held only notifications,
  // where JSON-RPC calls an empty batch an invalid request.
  if (Array.isArray(parsedBody) && parsedBody.length === 0)
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: the body is an empty batch; send one JSON-RPC request." },
        id: null,
      },
      { status: 400 },
    );
  const method = (parsedBody as { method?: unknown } | null)?.method;
  if (typeof method === "string") annotateSpan({ "mcp.method.name": method.slice(0, 100) });
  // Only initialize (2025 revisions) and server/discover (2026-07-28) answer with the
  // identity's instructions: any other request skips reading them (a query per call).
  const instructions = typeof method !== "string" || INSTRUCTED.has(method);
  // The MCP client, for the link evidence (domain/agent-tools/mcp-client.ts).
  const tokenId = actor.kind === "agent" ? actor.tokenId : null;
  const { client: named, introduces } = clientOfMessage(parsedBody);
  if (introduces && named && tokenId) await rememberTokenClient(tokenId, named);
  const client = requestClient(named, tokenId);
  const authInfo: AuthInfo = {
    token,
    clientId: actorId(actor) ?? "",
    scopes: [],
    extra: { actor, instructions, client },
  };
  // A 2025-era client's answer to a question put on the stream of one of its calls, for
  // whichever instance holds that call (in-band.ts).
  const answers = actor.kind === "agent" ? answersIn(parsedBody) : null;
  if (answers && actor.kind === "agent") return acceptAnswers(actor.identityId, answers);
  if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody, authInfo);
  return modern.fetch(request, { authInfo, parsedBody });
}

export function handleMcpOther(): Response {
  return jsonRpcErrorResponse(
    new DomainError("METHOD_NOT_ALLOWED", "/mcp keeps no sessions: send every request as a POST."),
    { allow: "POST" },
  );
}
