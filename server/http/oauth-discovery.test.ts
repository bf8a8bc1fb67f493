import { describe, expect, it } from "vitest";
import { bearerChallenge, handleDiscovery, isDiscoveryPath, publicOrigin } from "./oauth-discovery";

describe("bearerChallenge", () => {
  const request = new Request("http://127.0.0.1:4123/mcp", { method: "POST" });

  it("points at the path-suffixed metadata of the address used", () => {
    expect(bearerChallenge(request)).toBe(
      'Bearer resource_metadata="http://127.0.0.1:4123/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it("keeps a description inside its quoted string", () => {
    const header = bearerChallenge(request, { error: "invalid_token", description: 'say "no" \\ twice' });
    expect(header).toMatch(/error="invalid_token", error_description="say 'no' ' twice"$/);
  });
});

describe("publicOrigin", () => {
  it("believes a loopback Host and no other", () => {
    expect(publicOrigin(new Request("http://localhost:9999/x"))).toBe("http://localhost:9999");
    expect(publicOrigin(new Request("http://[::1]:9999/x"))).toBe("http://[::1]:9999");
    expect(publicOrigin(new Request("http://evil.example:9999/x"))).toBe("http://127.0.0.1:3000");
  });

  it("takes the Host header over the URL, which Next rewrites to localhost", () => {
    const asked = new Request("http://localhost:3420/x", { headers: { host: "127.0.0.1:3420" } });
    expect(publicOrigin(asked)).toBe("http://127.0.0.1:3420");
    const rebound = new Request("http://localhost:3420/x", { headers: { host: "rebound.example:3420" } });
    expect(publicOrigin(rebound)).toBe("http://127.0.0.1:3000");
    const broken = new Request("http://localhost:3420/x", { headers: { host: "a b" } });
    expect(publicOrigin(broken)).toBe("http://127.0.0.1:3000");
  });
});

describe("handleDiscovery", () => {
  it("covers the paths OAuth clients try, and only those", () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/register", "/authorize", "/token"])
      expect(isDiscoveryPath(path)).toBe(true);
    for (const path of ["/", "/mcp", "/registered", "/agents"]) expect(isDiscoveryPath(path)).toBe(false);
  });

  it("refuses to take a POST at the metadata document", async () => {
    const res = await handleDiscovery(
      new Request("http://127.0.0.1:1/.well-known/oauth-protected-resource", { method: "POST" }),
    );
    expect(res.status).toBe(405);
    expect((await res.json()).error).toBe("method_not_allowed");
  });

  it("serves the metadata with a trailing slash too", async () => {
    const res = await handleDiscovery(new Request("http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp/"));
    expect((await res.json()).resource).toBe("http://127.0.0.1:1/mcp");
  });
});
