/**
 * OAuth 2.1 for /mcp over real HTTP, driven by the MCP SDK's own OAuth client: discovery
 * from the 401, dynamic client registration, PKCE, an operator's approval as an Agent
 * Identity, the code exchanged, /mcp called as that identity, refresh rotation; and the
 * refusals tried on purpose (decision 0071).
 */

import { createHash, randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { resetAuth } from "@/server/auth";
import { getDb } from "@/server/db";
import { OAUTH_ACCESS_TOKEN_PREFIX } from "@/server/domain/identities/oauth-tokens";
import { LIMITS } from "@/server/limits";
import { hashToken } from "@/server/tokens";
import { callerFor, makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import {
  approveAt,
  browserGet,
  signInOverHttp as signInOverHttp_,
  toApprovalPage as toApprovalPage_,
} from "../helpers/oauth-browser";
import { MemoryOAuthProvider } from "../helpers/oauth-client";

withTestDatabase();
let app: Awaited<ReturnType<typeof serveApp>>;
let mcpUrl = "";
const registrationsPerMinute = LIMITS.OAUTH_REGISTRATIONS_PER_MINUTE as { value: number };
const registrationsBefore = registrationsPerMinute.value;
const REDIRECT = "http://127.0.0.1:49152/callback";

beforeAll(async () => {
  app = await serveApp();
  mcpUrl = `${app.url}/mcp`;
  // The authorization server binds tokens to the configured address: make it this one.
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = app.url;
  resetAuth();
  // Most tests register a client of their own, all from one address within a minute.
  registrationsPerMinute.value = 100;
});
afterAll(async () => {
  registrationsPerMinute.value = registrationsBefore;
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = undefined;
  await app.close();
});

const signInOverHttp = (email: string, password: string) => signInOverHttp_(app.url, email, password);
const toApprovalPage = (url: URL | string, cookie: string) => toApprovalPage_(app.url, url, cookie);
const approve = (page: URL, cookie: string, body: Record<string, unknown>, origin = app.url) =>
  approveAt(app.url, page, cookie, body, origin);

async function tokenRequest(form: Record<string, string>) {
  return fetch(`${app.url}/api/auth/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
}

async function listToolsWith(accessToken: string) {
  return fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

function codeExchange(provider: MemoryOAuthProvider, callback: URL): Record<string, string> {
  return {
    grant_type: "authorization_code",
    code: callback.searchParams.get("code") ?? "",
    redirect_uri: REDIRECT,
    client_id: provider.info?.client_id ?? "",
    code_verifier: provider.verifier,
    resource: mcpUrl,
  };
}

function refresh(provider: MemoryOAuthProvider, token: string) {
  return tokenRequest({
    grant_type: "refresh_token",
    refresh_token: token,
    client_id: provider.info?.client_id ?? "",
    resource: mcpUrl,
  });
}

interface Flow {
  provider: MemoryOAuthProvider;
  transport: StreamableHTTPClientTransport;
  callback: URL;
  identityId: string;
  cookie: string;
}

/** Discovery, registration and approval, up to the redirect back to the client. */
async function authorizeAs(identityName: string): Promise<Flow> {
  const { actor, email, password } = await makeUser("operator");
  const identity = await callerFor(actor).identities.create({ name: identityName });
  const cookie = await signInOverHttp(email, password);
  const provider = new MemoryOAuthProvider(REDIRECT, "Test Desktop Client");
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const client = new Client({ name: "oauth-test", version: "1" });
  const failure = await client.connect(transport).then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toBeTruthy();
  const authUrl = provider.authorizationUrl;
  if (!authUrl) throw new Error("the client was not sent to authorize");
  expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authUrl.searchParams.get("resource")).toBe(mcpUrl);
  const page = await toApprovalPage(authUrl, cookie);
  expect(page.pathname).toBe("/oauth/identity");
  const res = await approve(page, cookie, { accept: true, identityId: identity.id });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  const callback = new URL(answer.redirect);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  return { provider, transport, callback, identityId: identity.id, cookie };
}

describe("an MCP client signs in with OAuth", () => {
  it("discovers, registers, is approved as an identity, and lists that identity's Tools", async () => {
    const { provider, transport, callback, identityId } = await authorizeAs(`oauth-${Date.now()}`);
    expect(callback.searchParams.get("state")).toBe("state-123");
    expect(callback.searchParams.get("iss")).toBe(`${app.url}/api/auth`);
    await transport.finishAuth(callback.searchParams);
    const access = provider.saved?.access_token ?? "";
    expect(access).toMatch(/^qm_oat_/);
    expect(provider.saved?.refresh_token).toMatch(/^qm_ort_/);

    const client = new Client({ name: "oauth-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("find_tools");
    await client.close();

    // Hashed at rest, bound to /mcp, acting as the chosen identity.
    const db = await getDb();
    const rows = await db.oauthAccessToken.findMany({ where: { referenceId: identityId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token).not.toContain(access.slice(7, 20));
    expect(rows[0]?.resources).toEqual([mcpUrl]);
    const audit = await db.auditEvent.findFirst({ where: { action: "identity.oauth_grant", targetId: identityId } });
    expect(audit?.details).toMatchObject({ clientName: "Test Desktop Client" });
  });

  it("refuses a replayed code, and revokes what that code had issued", async () => {
    const { provider, callback } = await authorizeAs(`replay-${Date.now()}`);
    const exchange = codeExchange(provider, callback);
    const first = await tokenRequest(exchange);
    expect(first.status, await first.clone().text()).toBe(200);
    const tokens = await first.json();
    expect((await listToolsWith(tokens.access_token)).status).toBe(200);
    const replay = await tokenRequest(exchange);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    // RFC 6749 §4.1.2: a code used twice may be stolen, so its grant goes.
    expect((await refresh(provider, tokens.refresh_token)).status).toBe(400);
  });

  it("rotates refresh tokens, and a reused one revokes the grant", async () => {
    const { provider, callback } = await authorizeAs(`rotate-${Date.now()}`);
    const tokens = await (await tokenRequest(codeExchange(provider, callback))).json();
    const rotated = await refresh(provider, tokens.refresh_token);
    expect(rotated.status, await rotated.clone().text()).toBe(200);
    const next = await rotated.json();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await listToolsWith(next.access_token)).status).toBe(200);
    // The old refresh token again: refused, and the whole grant with it, access token too.
    expect((await refresh(provider, tokens.refresh_token)).status).toBe(400);
    expect((await refresh(provider, next.refresh_token)).status).toBe(400);
    expect((await listToolsWith(next.access_token)).status).toBe(401);
  });

  it("revokes a refresh or access token at the client's request (RFC 7009)", async () => {
    const { provider, callback } = await authorizeAs(`revoke-${Date.now()}`);
    const tokens = await (await tokenRequest(codeExchange(provider, callback))).json();
    const metadata = await (await fetch(`${app.url}/.well-known/oauth-authorization-server/api/auth`)).json();
    expect(metadata.revocation_endpoint).toBe(`${app.url}/api/auth/oauth2/revoke`);
    const revoke = (token: string, hint: string) =>
      fetch(metadata.revocation_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, token_type_hint: hint, client_id: provider.info?.client_id ?? "" }),
      });
    expect((await listToolsWith(tokens.access_token)).status).toBe(200);
    expect((await revoke(tokens.access_token, "access_token")).status).toBe(200);
    expect((await listToolsWith(tokens.access_token)).status).toBe(401);
    expect((await revoke(tokens.refresh_token, "refresh_token")).status).toBe(200);
    expect((await refresh(provider, tokens.refresh_token)).status).toBe(400);
  });

  it("keeps codes and access tokens short-lived: an old code and an expired token are refused", async () => {
    const codeSeconds = LIMITS.OAUTH_CODE_SECONDS as { value: number };
    const before = codeSeconds.value;
    codeSeconds.value = 4;
    resetAuth();
    try {
      const { provider, callback } = await authorizeAs(`expiry-${Date.now()}`);
      await new Promise((r) => setTimeout(r, 5000));
      const late = await tokenRequest(codeExchange(provider, callback));
      expect(late.status).toBe(400);
      expect((await late.json()).error).toBe("invalid_grant");
    } finally {
      codeSeconds.value = before;
      resetAuth();
    }
    const { provider, callback } = await authorizeAs(`expired-${Date.now()}`);
    const tokens = await (await tokenRequest(codeExchange(provider, callback))).json();
    expect(tokens.expires_in).toBe(LIMITS.OAUTH_ACCESS_TOKEN_SECONDS.value);
    const db = await getDb();
    await db.oauthAccessToken.updateMany({
      where: { token: hashToken(tokens.access_token.slice(OAUTH_ACCESS_TOKEN_PREFIX.length)) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await listToolsWith(tokens.access_token)).status).toBe(401);
  });
});

/** A client registered by DCR, and an operator signed in with identities to choose from. */
async function registeredClient(name: string, identityNames: string[]) {
  const { actor, email, password } = await makeUser("operator");
  const identities = [];
  for (const identityName of identityNames)
    identities.push(await callerFor(actor).identities.create({ name: identityName }));
  const cookie = await signInOverHttp(email, password);
  const provider = new MemoryOAuthProvider(REDIRECT, name);
  await new Client({ name: "oauth-test", version: "1" })
    .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
    .catch(() => {});
  const clientId = provider.info?.client_id ?? "";
  expect(clientId).toBeTruthy();
  return { clientId, identities, cookie };
}

/** One authorization request of a client, with its own PKCE verifier, as the client sends the browser. */
function authorizationRequest(clientId: string) {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${app.url}/api/auth/oauth2/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: `state-${verifier.slice(0, 6)}`,
    scope: "mcp offline_access",
    resource: mcpUrl,
  }))
    url.searchParams.set(name, value);
  return { url, verifier };
}

/** The identity an approval's code acts as, once exchanged. */
async function identityOfCode(clientId: string, redirect: string, verifier: string): Promise<string | null> {
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code: new URL(redirect).searchParams.get("code") ?? "",
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    resource: mcpUrl,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { access_token } = await res.json();
  const db = await getDb();
  const row = await db.oauthAccessToken.findFirst({
    where: { token: hashToken(access_token.slice(OAUTH_ACCESS_TOKEN_PREFIX.length)) },
  });
  return row?.referenceId ?? null;
}

describe("a consent page open in two tabs", () => {
  it("answers one request once: two approvals at once give one code, and the page posted again grants nothing", async () => {
    const { clientId, identities, cookie } = await registeredClient("Two Tab Client", [`tabs-${Date.now()}`]);
    const identityId = identities[0]?.id ?? "";
    const { url, verifier } = authorizationRequest(clientId);
    // The client's one request, opened twice: two signed pages for one PKCE challenge.
    const [tabA, tabB] = [await toApprovalPage(url, cookie), await toApprovalPage(url, cookie)];
    expect(tabA.search).not.toBe(tabB.search);
    const answers = await Promise.all(
      [tabA, tabB].map(async (tab) => {
        const res = await approve(tab, cookie, { accept: true, identityId });
        return { status: res.status, body: await res.json() };
      }),
    );
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.status).toBe(409);
    expect(lost[0]?.body.message).toMatch(/already approved|approving this client/);
    // Either tab, posted again (a retry, or the page reopened from history): nothing more.
    for (const tab of [tabA, tabB]) {
      const again = await approve(tab, cookie, { accept: true, identityId });
      expect(again.status).toBe(409);
      expect((await again.json()).message).toMatch(/already approved, in another tab or window/);
    }
    expect(await identityOfCode(clientId, won[0]?.body.redirect, verifier)).toBe(identityId);
    const db = await getDb();
    expect(await db.oauthConsent.count({ where: { clientId } })).toBe(1);
    expect(await db.oauthAccessToken.count({ where: { clientId } })).toBe(1);
  });

  it("approve in one tab and deny in the other: one outcome, and the other tab is told which", async () => {
    const { clientId, identities, cookie } = await registeredClient("Approve Deny Client", [`ad-${Date.now()}`]);
    const identityId = identities[0]?.id ?? "";
    const db = await getDb();

    // Denied first: the approval that follows grants nothing.
    const first = authorizationRequest(clientId);
    const [denyTab, approveTab] = [await toApprovalPage(first.url, cookie), await toApprovalPage(first.url, cookie)];
    const denied = await approve(denyTab, cookie, { accept: false });
    expect(denied.status).toBe(200);
    expect(new URL((await denied.json()).redirect).searchParams.get("error")).toBe("access_denied");
    const late = await approve(approveTab, cookie, { accept: true, identityId });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toMatch(/already denied.*nothing was granted/);
    expect(await db.oauthConsent.count({ where: { clientId } })).toBe(0);

    // At once: exactly one of them happens.
    const second = authorizationRequest(clientId);
    const tabs = [await toApprovalPage(second.url, cookie), await toApprovalPage(second.url, cookie)];
    const [approval, denial] = await Promise.all([
      approve(tabs[0] as URL, cookie, { accept: true, identityId }),
      approve(tabs[1] as URL, cookie, { accept: false }),
    ]);
    expect([approval.status, denial.status].sort()).toEqual([200, 409]);
    const granted = approval.status === 200;
    expect(((await (granted ? denial : approval).json()) as { message: string }).message).toMatch(
      granted ? /already approved/ : /already denied/,
    );
    expect(await db.oauthConsent.count({ where: { clientId } })).toBe(granted ? 1 : 0);
  });

  it("two requests approved at once in two tabs act each as the identity its own tab chose", async () => {
    const stamp = Date.now();
    const one = await registeredClient("First Tab Client", [`first-${stamp}`]);
    const other = await registeredClient("Second Tab Client", []);
    const two = {
      ...other,
      identities: [await callerFor((await makeUser("operator")).actor).identities.create({ name: `second-${stamp}` })],
    };
    // The same person in both tabs: one session.
    const cookie = one.cookie;
    const requests = [
      { clientId: one.clientId, identityId: one.identities[0]?.id ?? "", ...authorizationRequest(one.clientId) },
      { clientId: two.clientId, identityId: two.identities[0]?.id ?? "", ...authorizationRequest(two.clientId) },
      // And a second request of the first client, as the second identity.
      { clientId: one.clientId, identityId: two.identities[0]?.id ?? "", ...authorizationRequest(one.clientId) },
    ];
    const pages: URL[] = [];
    for (const r of requests) pages.push(await toApprovalPage(r.url, cookie));
    const approveAll = (indexes: number[]) =>
      Promise.all(
        indexes.map(async (i) => {
          const res = await approve(pages[i] ?? new URL(app.url), cookie, {
            accept: true,
            identityId: requests[i]?.identityId,
          });
          return { i, status: res.status, body: await res.json() };
        }),
      );
    const redirects = new Map<number, string>();
    let pending = [0, 1, 2];
    for (let round = 0; round < 5 && pending.length; round++) {
      for (const answer of await approveAll(pending)) {
        if (answer.status === 200) redirects.set(answer.i, answer.body.redirect);
        // Two approvals of one client at once: the later one is told to wait, and may try again.
        else expect(answer.body.message, JSON.stringify(answer)).toMatch(/approving this client for you right now/);
      }
      pending = pending.filter((i) => !redirects.has(i));
    }
    expect(pending).toEqual([]);
    for (const [i, r] of requests.entries())
      expect(await identityOfCode(r.clientId, redirects.get(i) ?? "", r.verifier), `request ${i}`).toBe(r.identityId);
    const db = await getDb();
    expect(await db.oauthConsent.count({ where: { clientId: one.clientId } })).toBe(2);
    expect(await db.oauthConsent.count({ where: { clientId: two.clientId } })).toBe(1);
  });
});

describe("the consent step, tried from another site", () => {
  it("refuses to be framed, and refuses an approval posted cross-site without approving anything", async () => {
    const { actor, email, password } = await makeUser("operator");
    const identity = await callerFor(actor).identities.create({ name: `csrf-${Date.now()}` });
    const cookie = await signInOverHttp(email, password);
    const provider = new MemoryOAuthProvider(REDIRECT, "Test Desktop Client");
    await new Client({ name: "oauth-test", version: "1" })
      .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      .catch(() => {});
    const page = await toApprovalPage(provider.authorizationUrl ?? "", cookie);
    expect(page.pathname).toBe("/oauth/identity");
    // Clickjacking: a page elsewhere may not frame the consent step.
    const shown = await browserGet(page, cookie);
    expect(shown.status).toBe(200);
    const framing = await fetch(page, { headers: { cookie } });
    expect(framing.headers.get("x-frame-options")).toBe("DENY");
    expect(framing.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    // Consent CSRF: the person's cookie rides along, but the Origin is another site's (or none).
    for (const origin of ["https://attacker.example", "null", ""]) {
      const res = await fetch(`${app.url}/api/oauth/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, ...(origin ? { origin } : {}) },
        body: JSON.stringify({ oauth_query: page.search.slice(1), accept: true, identityId: identity.id }),
      });
      expect(res.status, origin).toBe(403);
    }
    const db = await getDb();
    expect(await db.oauthConsent.count({ where: { referenceId: identity.id } })).toBe(0);
    // The same request from our own page goes through: the refusals were for the origin.
    const ours = await approve(page, cookie, { accept: true, identityId: identity.id });
    expect(ours.status).toBe(200);
    expect(await db.oauthConsent.count({ where: { referenceId: identity.id } })).toBe(1);
  });
});

describe("grants on the identity's Tokens tab", () => {
  it("lists who approved which client, and a revocation there is refused at /mcp at once", async () => {
    const { provider, transport, callback, identityId } = await authorizeAs(`tab-${Date.now()}`);
    await transport.finishAuth(callback.searchParams);
    const access = provider.saved?.access_token ?? "";
    const viewer = await makeUser("viewer");
    // Issued but not yet used at /mcp: the tab says never, not the time it was issued.
    const unused = await callerFor(viewer.actor).identities.oauthGrants({ id: identityId });
    expect(unused[0]?.lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await listToolsWith(access)).status).toBe(200);

    const grants = await callerFor(viewer.actor).identities.oauthGrants({ id: identityId });
    expect(grants[0]?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      clientName: "Test Desktop Client",
      approvedBy: expect.stringMatching(/^operator-/),
    });
    expect(grants[0]?.lastTokenAt).toBeInstanceOf(Date);
    const grantId = grants[0]?.id ?? "";
    await expect(callerFor(viewer.actor).identities.revokeOAuthGrant({ id: grantId })).rejects.toThrow();

    const { actor } = await makeUser("operator");
    await callerFor(actor).identities.revokeOAuthGrant({ id: grantId });
    expect((await listToolsWith(access)).status).toBe(401);
    expect((await refresh(provider, provider.saved?.refresh_token ?? "")).status).toBe(400);
    expect(await callerFor(actor).identities.oauthGrants({ id: identityId })).toEqual([]);
    const db = await getDb();
    const audit = await db.auditEvent.findFirst({
      where: { action: "identity.revoke_oauth_grant", targetId: identityId },
    });
    expect(audit?.details).toMatchObject({ clientName: "Test Desktop Client" });
  });
});

describe("refusals", () => {
  it("refuses a token whose identity was deleted", async () => {
    const { provider, transport, callback, identityId } = await authorizeAs(`doomed-${Date.now()}`);
    await transport.finishAuth(callback.searchParams);
    const access = provider.saved?.access_token ?? "";
    expect((await listToolsWith(access)).status).toBe(200);
    const { actor } = await makeUser("operator");
    await callerFor(actor).identities.delete({ id: identityId });
    const res = await listToolsWith(access);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses an authorization with a redirect URI the client did not register, without redirecting there", async () => {
    const { actor, email, password } = await makeUser("operator");
    await callerFor(actor).identities.create({ name: `redirect-${Date.now()}` });
    const cookie = await signInOverHttp(email, password);
    const provider = new MemoryOAuthProvider(REDIRECT, "Test Desktop Client");
    const client = new Client({ name: "oauth-test", version: "1" });
    await client
      .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      .catch(() => {});
    const url = new URL(provider.authorizationUrl ?? "");
    url.searchParams.set("redirect_uri", "https://attacker.example/steal");
    const res = await browserGet(url, cookie);
    expect(res.location ?? "").not.toContain("attacker.example");
    if (res.status === 302) expect(new URL(res.location ?? "", app.url).origin).toBe(app.url);
    else expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it("refuses plain PKCE, missing PKCE, and a token for another resource", async () => {
    const { email, password } = await makeUser("operator");
    const cookie = await signInOverHttp(email, password);
    const provider = new MemoryOAuthProvider(REDIRECT, "Test Desktop Client");
    const client = new Client({ name: "oauth-test", version: "1" });
    await client
      .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      .catch(() => {});
    const base = new URL(provider.authorizationUrl ?? "");
    const variants: [string, (u: URL) => void][] = [
      ["plain PKCE", (u) => u.searchParams.set("code_challenge_method", "plain")],
      [
        "no PKCE",
        (u) => {
          u.searchParams.delete("code_challenge");
          u.searchParams.delete("code_challenge_method");
        },
      ],
      ["another resource", (u) => u.searchParams.set("resource", "https://elsewhere.example/mcp")],
    ];
    for (const [name, change] of variants) {
      const url = new URL(base);
      change(url);
      const res = await browserGet(url, cookie);
      const location = new URL(res.location ?? REDIRECT, app.url);
      // Refused back to the client with an error, never on to our approval page.
      expect(location.pathname, name).not.toBe("/oauth/identity");
      expect(location.searchParams.get("error") ?? String(res.status), name).toMatch(/invalid|4\d\d/);
    }
  });

  it("refuses a code exchanged with another redirect URI or for another resource, and a token bound elsewhere at /mcp", async () => {
    const { provider, callback } = await authorizeAs(`exchange-${Date.now()}`);
    const exchange = codeExchange(provider, callback);
    for (const [name, change] of [
      ["another redirect URI", { redirect_uri: "http://127.0.0.1:49152/elsewhere" }],
      ["another resource", { resource: "https://elsewhere.example/mcp" }],
    ] as const) {
      const res = await tokenRequest({ ...exchange, ...change });
      expect(res.status, name).toBe(400);
      expect((await res.json()).error, name).toMatch(/^invalid_(grant|target|request)$/);
    }
    // A fresh grant, for the refresh and /mcp refusals.
    const next = await authorizeAs(`exchange-b-${Date.now()}`);
    const tokens = await (await tokenRequest(codeExchange(next.provider, next.callback))).json();
    expect((await listToolsWith(tokens.access_token)).status).toBe(200);
    const refreshElsewhere = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: next.provider.info?.client_id ?? "",
      resource: "https://elsewhere.example/mcp",
    });
    expect(refreshElsewhere.status).toBe(400);
    // A token bound to another resource (as another server's would be) is no token here.
    const db = await getDb();
    await db.oauthAccessToken.updateMany({
      where: { token: hashToken(tokens.access_token.slice(OAUTH_ACCESS_TOKEN_PREFIX.length)) },
      data: { resources: ["https://elsewhere.example/mcp"] },
    });
    const res = await listToolsWith(tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses viewers and curators, and lets operators approve only from our own page", async () => {
    const { actor } = await makeUser("operator");
    const identity = await callerFor(actor).identities.create({ name: `viewer-${Date.now()}` });
    const provider = new MemoryOAuthProvider(REDIRECT, "Test Desktop Client");
    const client = new Client({ name: "oauth-test", version: "1" });
    await client
      .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      .catch(() => {});
    for (const role of ["viewer", "curator"] as const) {
      const person = await makeUser(role);
      const cookie = await signInOverHttp(person.email, person.password);
      const page = await toApprovalPage(provider.authorizationUrl ?? "", cookie);
      const refused = await approve(page, cookie, { accept: true, identityId: identity.id });
      expect(refused.status, role).toBe(403);
      expect((await refused.json()).message, role).toMatch(/operator/);
    }

    const op = await makeUser("operator");
    const opCookie = await signInOverHttp(op.email, op.password);
    const opPage = await toApprovalPage(provider.authorizationUrl ?? "", opCookie);
    const crossSite = await approve(
      opPage,
      opCookie,
      { accept: true, identityId: identity.id },
      "https://evil.example",
    );
    expect(crossSite.status).toBe(403);
  });
});
