/**
 * Client ID Metadata Documents over real HTTP (decision 0080): an MCP client whose client_id
 * is the https URL of its metadata document, served by a real TLS server on loopback, signs
 * in with the MCP SDK's own OAuth client and calls /mcp; the document is fetched once while
 * its max-age lasts; and the documents an attacker would serve are refused on purpose.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { resetAuth } from "@/server/auth";
import { forgetClientMetadataDocuments } from "@/server/auth/client-metadata-document";
import { getDb } from "@/server/db";
import { describeAuthorization } from "@/server/domain/identities/oauth-grants";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { type LoopbackServer, listenOnLoopbackHttps } from "../helpers/loopback";
import { approveAt, browserGet, signInOverHttp, toApprovalPage } from "../helpers/oauth-browser";
import { MemoryOAuthProvider } from "../helpers/oauth-client";

withTestDatabase();
let app: Awaited<ReturnType<typeof serveApp>>;
let docs: LoopbackServer;
let mcpUrl = "";
// Registered without a port: a native client's loopback redirect matches on any (RFC 8252).
const REGISTERED_REDIRECT = "http://127.0.0.1/callback";
const REDIRECT = "http://127.0.0.1:49152/callback";
const fetches = new Map<string, number>();
const held: ServerResponse[] = [];

function document(path: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: `${docs.origin}${path}`,
    client_name: "Metadata Desktop Client",
    client_uri: `${docs.origin}/`,
    redirect_uris: [REGISTERED_REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...extra,
  };
}

function serveDocument(req: IncomingMessage, res: ServerResponse) {
  const path = new URL(req.url ?? "/", docs.origin).pathname;
  fetches.set(path, (fetches.get(path) ?? 0) + 1);
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  switch (path) {
    case "/client.json":
    case "/second.json":
      return json(document(path), { "cache-control": "public, max-age=300" });
    case "/other-id.json":
      return json(document("/client.json"));
    case "/big.json":
      return json(document(path, { description: "x".repeat(LIMITS.OAUTH_METADATA_DOCUMENT_BYTES.value) }));
    case "/slow.json":
      held.push(res);
      return;
    case "/page.json":
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>Not a document</title>");
      return;
    case "/broken.json":
      return json('{"client_id": ');
    case "/secret.json":
      return json(document(path, { token_endpoint_auth_method: "client_secret_basic" }));
    case "/moved.json":
      res.writeHead(302, { location: "/client.json" });
      res.end();
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  app = await serveApp();
  mcpUrl = `${app.url}/mcp`;
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = app.url;
  resetAuth();
  forgetClientMetadataDocuments();
  docs = await listenOnLoopbackHttps(serveDocument);
  // The document server is on loopback, which a metadata-document fetch reaches only when the
  // admin's network policy allows it; the refusals below switch it back off.
  const admin = await makeUser("admin");
  await callerFor(admin.actor).sources.setNetworkPolicy({ allowLinkLocal: true });
});
afterAll(async () => {
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = undefined;
  for (const res of held) res.destroy();
  await docs.close();
  await app.close();
});

async function setPolicy(allowLinkLocal: boolean) {
  const admin = await makeUser("admin");
  await callerFor(admin.actor).sources.setNetworkPolicy({ allowLinkLocal });
}

/** The MCP SDK's client with a metadata-document URL, through discovery to our approval page, approved. */
async function signInWithDocument(path: string, identityName: string) {
  const { actor, email, password } = await makeUser("operator");
  const identity = await callerFor(actor).identities.create({ name: identityName });
  const cookie = await signInOverHttp(app.url, email, password);
  const provider = new MemoryOAuthProvider(REDIRECT, "not used: the document names the client");
  provider.clientMetadataUrl = `${docs.origin}${path}`;
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const failure = await new Client({ name: "cimd-test", version: "1" }).connect(transport).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(UnauthorizedError);
  const authUrl = provider.authorizationUrl;
  if (!authUrl) throw new Error("the client was not sent to authorize");
  // The SDK saw client_id_metadata_document_supported and sent its URL instead of registering.
  expect(authUrl.searchParams.get("client_id")).toBe(provider.clientMetadataUrl);
  const page = await toApprovalPage(app.url, authUrl, cookie);
  expect(page.pathname).toBe("/oauth/identity");
  const view = await describeAuthorization(
    actor as Extract<typeof actor, { kind: "user" }>,
    provider.clientMetadataUrl,
    REDIRECT,
  );
  const res = await approveAt(app.url, page, cookie, { accept: true, identityId: identity.id });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return { provider, transport, callback: new URL(answer.redirect), identityId: identity.id, view, cookie };
}

/** An authorization request as a client would send the browser, PKCE and all, for one client_id. */
function authorizeUrl(clientId: string, redirectUri = REDIRECT): URL {
  const url = new URL(`${app.url}/api/auth/oauth2/authorize`);
  const challenge = createHash("sha256").update("a-verifier-long-enough-for-pkce-0123456789").digest("base64url");
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-cimd",
    scope: "mcp offline_access",
    resource: mcpUrl,
  }))
    url.searchParams.set(name, value);
  return url;
}

/** The authorization server's refusal of a client_id, never a step towards consent. */
async function refusal(clientId: string): Promise<string> {
  const { email, password } = await makeUser("operator");
  const cookie = await signInOverHttp(app.url, email, password);
  const res = await browserGet(authorizeUrl(clientId), cookie);
  const location = res.location ? new URL(res.location, app.url) : null;
  expect(location?.pathname ?? "", clientId).not.toBe("/oauth/identity");
  expect(location?.origin ?? app.url, clientId).toBe(app.url);
  const said = location?.searchParams.get("error_description") ?? res.body;
  expect(res.status === 302 ? location?.searchParams.get("error") : res.status, said).toBeTruthy();
  return said;
}

describe("a client known by its metadata document", () => {
  it("is advertised in the authorization server's metadata", async () => {
    const res = await fetch(`${app.url}/.well-known/oauth-authorization-server/api/auth`);
    expect((await res.json()).client_id_metadata_document_supported).toBe(true);
  });

  it("signs in with PKCE, is approved as an identity, and calls /mcp as it", async () => {
    const { provider, transport, callback, view } = await signInWithDocument("/client.json", `cimd-${Date.now()}`);
    // The consent page names the client from its document, with where the code goes and who says so.
    expect(view).toMatchObject({
      clientName: "Metadata Desktop Client",
      redirectHost: "127.0.0.1:49152",
      documentHost: new URL(docs.origin).host,
    });
    expect(callback.searchParams.get("iss")).toBe(`${app.url}/api/auth`);
    await transport.finishAuth(callback.searchParams);
    expect(provider.saved?.access_token).toMatch(/^qm_oat_/);
    const client = new Client({ name: "cimd-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("find_tools");
    await client.close();
    // A public client: the library stored no secret for it, and knows where it came from.
    const db = await getDb();
    const row = await db.oauthClient.findUniqueOrThrow({ where: { clientId: provider.clientMetadataUrl } });
    expect(row).toMatchObject({ clientSecret: null, clientDiscoveryId: "cimd", tokenEndpointAuthMethod: "none" });
    expect(fetches.get("/client.json")).toBe(1);
  });

  it("is fetched once while its max-age lasts: a second authorization, its code and refresh do not fetch it", async () => {
    const first = await signInWithDocument("/second.json", `cache-a-${Date.now()}`);
    expect(fetches.get("/second.json")).toBe(1);
    const second = await signInWithDocument("/second.json", `cache-b-${Date.now()}`);
    await second.transport.finishAuth(second.callback.searchParams);
    const refreshed = await fetch(`${app.url}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: second.provider.saved?.refresh_token ?? "",
        client_id: `${docs.origin}/second.json`,
        resource: mcpUrl,
      }),
    });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    expect(first.callback.searchParams.get("code")).not.toBe(second.callback.searchParams.get("code"));
    expect(fetches.get("/second.json")).toBe(1);
  });
});

describe("metadata documents refused on purpose", () => {
  it("refuses a document on a link-local address, and on loopback, unless the network policy allows them", async () => {
    await setPolicy(false);
    try {
      expect(await refusal("https://169.254.169.254/latest/client.json")).toMatch(/169\.254\.169\.254.*link-local/);
      const before = fetches.get("/never.json") ?? 0;
      expect(await refusal(`${docs.origin}/never.json`)).toMatch(/loopback/);
      // Refused before anything connected.
      expect(fetches.get("/never.json") ?? 0).toBe(before);
      // A document kept from before the change does not outlive it: the known client is refused too.
      expect(await refusal(`${docs.origin}/client.json`)).toMatch(/loopback/);
    } finally {
      await setPolicy(true);
    }
  });

  it("refuses an http:// client_id without fetching it", async () => {
    const said = await refusal(`${docs.origin.replace("https:", "http:")}/client.json`);
    expect(said).toMatch(/must use https/);
  });

  it("refuses a document whose client_id is not its own URL", async () => {
    expect(await refusal(`${docs.origin}/other-id.json`)).toMatch(/not its own URL/);
  });

  it("refuses an oversized document, a page, broken JSON, a redirect and a claimed client secret", async () => {
    expect(await refusal(`${docs.origin}/big.json`)).toMatch(/larger than 5120 bytes/);
    expect(await refusal(`${docs.origin}/page.json`)).toMatch(/not JSON/);
    expect(await refusal(`${docs.origin}/broken.json`)).toMatch(/not valid JSON/);
    expect(await refusal(`${docs.origin}/moved.json`)).toMatch(/redirect \(HTTP 302\)/);
    expect(await refusal(`${docs.origin}/secret.json`)).toMatch(/client_secret_basic.*public client/);
    // A failure is kept a short while too: asking again does not fetch again.
    await refusal(`${docs.origin}/secret.json`);
    expect(fetches.get("/secret.json")).toBe(1);
  });

  it("gives up on a document that does not answer within its time limit", async () => {
    const limit = LIMITS.OAUTH_METADATA_DOCUMENT_MS as { value: number };
    const before = limit.value;
    limit.value = 500;
    try {
      const started = Date.now();
      expect(await refusal(`${docs.origin}/slow.json`)).toMatch(/did not answer within 500 ms/);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      limit.value = before;
    }
  });

  it("fetches at most OAUTH_METADATA_FETCHES_PER_MINUTE documents a minute for one address, kept ones free", async () => {
    const perMinute = LIMITS.OAUTH_METADATA_FETCHES_PER_MINUTE as { value: number };
    const before = perMinute.value;
    // Kept again (the policy changes above forgot every document), before the door closes.
    await signInWithDocument("/second.json", `rate-a-${Date.now()}`);
    // This file's fetches so far came from the same loopback address in this minute.
    perMinute.value = 0;
    try {
      const fetched = fetches.get("/rate.json") ?? 0;
      expect(await refusal(`${docs.origin}/rate.json`)).toMatch(/At most 0 client metadata documents/);
      expect(fetches.get("/rate.json") ?? 0).toBe(fetched);
      // A document still kept costs no fetch, so it is not refused.
      await signInWithDocument("/second.json", `rate-b-${Date.now()}`);
    } finally {
      perMinute.value = before;
    }
  });

  it("refuses a redirect URI the document does not list, without redirecting there", async () => {
    const { email, password } = await makeUser("operator");
    const cookie = await signInOverHttp(app.url, email, password);
    const res = await browserGet(authorizeUrl(`${docs.origin}/client.json`, "https://attacker.example/steal"), cookie);
    expect(res.location ?? "").not.toContain("attacker.example");
    if (res.status === 302) expect(new URL(res.location ?? "", app.url).origin).toBe(app.url);
    else expect(res.status).toBeGreaterThanOrEqual(400);
  });
});
