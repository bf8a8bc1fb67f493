/**
 * What an OAuth-first client meets at /mcp over real HTTP, through the product's own
 * front: the 401's challenge, the discovery documents, and JSON (never a page) on every
 * path the MCP SDK's own auth discovery walks. Pasted tokens keep working beside it.
 */

import http from "node:http";
import {
  Client,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { resetAuth } from "@/server/auth";
import { serveApp } from "../helpers/app-server";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();
let app: Awaited<ReturnType<typeof serveApp>>;
let mcpUrl = "";
beforeAll(async () => {
  app = await serveApp();
  mcpUrl = `${app.url}/mcp`;
});
afterAll(() => app.close());

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
function post(headers: Record<string, string> = {}) {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: LIST,
  });
}

describe("the 401 from /mcp", () => {
  it("names the resource metadata, and no error when no token was sent (RFC 6750 §3)", async () => {
    const res = await post();
    expect(res.status).toBe(401);
    const params = extractWWWAuthenticateParams(res);
    expect(params.resourceMetadataUrl?.href).toBe(`${app.url}/.well-known/oauth-protected-resource/mcp`);
    expect(params.error).toBeUndefined();
    expect((await res.json()).error.data.code).toBe("UNAUTHENTICATED");
  });

  it("says invalid_token, with a description, when a token was sent and refused", async () => {
    const res = await post({ authorization: "Bearer qm_agent_not-a-real-token" });
    expect(res.status).toBe(401);
    const params = extractWWWAuthenticateParams(res);
    expect(params.error).toBe("invalid_token");
    expect(params.errorDescription).toMatch(/unknown or has been revoked/);
    expect(params.resourceMetadataUrl?.pathname).toBe("/.well-known/oauth-protected-resource/mcp");
    // RFC 6750's grammar for error_description: printable ASCII without " and \.
    expect(res.headers.get("www-authenticate")).toMatch(/^[\x20-\x7e]+$/);
  });

  it("says invalid_request for credentials that are not a bearer token", async () => {
    const res = await post({ authorization: "Basic dXNlcjpwYXNz" });
    expect(res.status).toBe(401);
    expect(extractWWWAuthenticateParams(res).error).toBe("invalid_request");
  });
});

describe("discovery", () => {
  it("serves RFC 9728 metadata for /mcp at the root and the path-suffixed form, readable cross-origin", async () => {
    // The SDK's own discovery, as its clients run it after a 401.
    const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl);
    expect(metadata.resource).toBe(mcpUrl);
    expect(metadata.bearer_methods_supported).toEqual(["header"]);
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { origin: "https://client.example" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect((await res.json()).resource).toBe(mcpUrl);
    }
    const preflight = await fetch(`${app.url}/.well-known/oauth-protected-resource/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "https://client.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
  });

  it("advertises the address a loopback client used, and the configured one for any other Host", async () => {
    // fetch will not send another Host; a raw request does, as a rebound DNS name would.
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(
          {
            port: app.port,
            host: "127.0.0.1",
            path: "/.well-known/oauth-protected-resource",
            headers: { host: "rebound.attacker.example" },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () => resolve(text));
          },
        )
        .on("error", reject);
    });
    expect(JSON.parse(body).resource).toBe("http://127.0.0.1:3000/mcp");
  });

  it("names the authorization server, whose RFC 8414 metadata the SDK finds at the issuer and at the root", async () => {
    const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl);
    const issuer = metadata.authorization_servers?.[0] ?? "";
    expect(issuer).toBe("http://127.0.0.1:3000/api/auth");
    // The configured base URL is the issuer; this test server's port is another, so ask it by path.
    for (const path of [
      "/.well-known/oauth-authorization-server/api/auth",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]) {
      const res = await fetch(`${app.url}${path}`, { headers: { origin: "https://client.example" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      const body = await res.json();
      expect(body.issuer, path).toBe(issuer);
      expect(body.code_challenge_methods_supported, path).toEqual(["S256"]);
      expect(body.registration_endpoint, path).toBe(`${issuer}/oauth2/register`);
      expect(body.authorization_response_iss_parameter_supported, path).toBe(true);
      expect(body.client_id_metadata_document_supported, path).toBe(true);
    }
  });

  it("answers JSON, never a page, on every path a client's discovery walks", async () => {
    const paths: [string, string][] = [
      ["GET", "/.well-known/oauth-authorization-server/mcp"],
      ["GET", "/.well-known/oauth-protected-resource/elsewhere"],
      ["GET", "/.well-known/anything-else"],
      ["POST", "/register"],
      ["GET", "/authorize"],
      ["POST", "/token"],
    ];
    for (const [method, path] of paths) {
      const res = await fetch(`${app.url}${path}`, { method });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      const body = await res.json();
      expect(typeof body.error, path).toBe("string");
      expect(body.error_description, path).toMatch(/.{20}/);
    }
  });

  it("sends an OAuth-first SDK client on to authorize, after registering it", async () => {
    let sentTo: URL | null = null;
    let registered: unknown = null;
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:1/callback",
      clientMetadata: { client_name: "probe", redirect_uris: ["http://127.0.0.1:1/callback"] },
      clientInformation: () => undefined,
      saveClientInformation: (info) => {
        registered = info;
      },
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: (url) => {
        sentTo = url;
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => "",
    };
    // The issuer is the configured address: make it this server's for the SDK to reach it.
    (env as { QM_BASE_URL?: string }).QM_BASE_URL = app.url;
    resetAuth();
    const client = new Client({ name: "oauth-first", version: "1" });
    const failure = await client
      .connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      .then(
        () => null,
        (error: unknown) => error as Error,
      )
      .finally(() => {
        (env as { QM_BASE_URL?: string }).QM_BASE_URL = undefined;
        resetAuth();
      });
    await client.close().catch(() => {});
    expect(failure?.name, String(failure)).toBe("UnauthorizedError");
    expect(registered).toMatchObject({ client_name: "probe" });
    expect(String(sentTo)).toMatch(/\/api\/auth\/oauth2\/authorize\?/);
  });
});

describe("pasted tokens", () => {
  it("keep working unchanged on the same /mcp", async () => {
    const api = await operator();
    const identity = await api.identities.create({ name: `pasted-${Date.now()}` });
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "pasted" });
    const client = new Client({ name: "pasted", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("find_tools");
    await client.close();
  });
});

describe("a plain-HTTP public address that is not loopback", () => {
  it("keeps the console and pasted tokens, and says on every discovery path that OAuth is off and why", async () => {
    (env as { QM_BASE_URL?: string }).QM_BASE_URL = "http://qm.internal.example:8080";
    resetAuth();
    try {
      // Signing in to the console builds the auth instance: it must not refuse to start.
      const api = await operator();
      const identity = await api.identities.create({ name: `plain-http-${Date.now()}` });
      const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "pasted" });
      const res = await post({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);

      const challenge = await post();
      expect(challenge.status).toBe(401);
      expect(extractWWWAuthenticateParams(challenge).resourceMetadataUrl).toBeUndefined();
      expect(challenge.headers.get("www-authenticate")).toBe('Bearer realm="Quartermaster"');
      for (const path of [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-authorization-server/api/auth",
        "/register",
      ]) {
        const refused = await fetch(`${app.url}${path}`);
        expect(refused.status, path).toBe(404);
        expect((await refused.json()).error_description, path).toMatch(/needs HTTPS.*Bearer <token>/);
      }
    } finally {
      (env as { QM_BASE_URL?: string }).QM_BASE_URL = undefined;
      resetAuth();
    }
  });
});
