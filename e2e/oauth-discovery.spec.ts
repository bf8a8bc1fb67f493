import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/client";
import { expect, test } from "./fixtures";

// Through Next.js as `npm start` serves it: its route handlers see request.url as localhost
// whatever address was asked for, so this is where an advertised resource could drift from
// the URL the client used (and clients refuse metadata whose resource is not theirs).
test("an OAuth-first client's discovery gets JSON naming the /mcp it called", async ({ baseURL }) => {
  const mcpUrl = `${baseURL}/mcp`;
  const refused = await fetch(mcpUrl, {
    method: "POST",
    headers: { authorization: "Bearer qm_agent_wrong", "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(refused.status).toBe(401);
  const challenge = extractWWWAuthenticateParams(refused);
  expect(challenge.error).toBe("invalid_token");
  expect(challenge.resourceMetadataUrl?.href).toBe(`${baseURL}/.well-known/oauth-protected-resource/mcp`);

  const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl, {
    resourceMetadataUrl: challenge.resourceMetadataUrl,
  });
  expect(metadata.resource).toBe(mcpUrl);
  const issuer = `${baseURL}/api/auth`;
  expect(metadata.authorization_servers).toEqual([issuer]);
  const server = await discoverAuthorizationServerMetadata(issuer);
  expect(server?.issuer).toBe(issuer);
  expect(server?.code_challenge_methods_supported).toEqual(["S256"]);

  for (const path of ["/.well-known/unknown", "/register"]) {
    const res = await fetch(`${baseURL}${path}`, { method: path === "/register" ? "POST" : "GET" });
    expect(res.status, path).toBe(404);
    expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
    expect((await res.json()).error_description, path).toContain("Bearer <token>");
  }
});
