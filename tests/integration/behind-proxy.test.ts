/**
 * The console behind a reverse proxy whose public URL has a port: the cross-site check
 * compares the Origin with QM_BASE_URL's origin, whatever Host the proxy forwards.
 */
import { describe, expect, it, vi } from "vitest";

const PUBLIC = vi.hoisted(() => {
  process.env.QM_BASE_URL = "http://qm.example.test:8443";
  return new URL(process.env.QM_BASE_URL);
});

import { makeUser, signIn, trpcHttp } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

async function createKey(name: string, headers: Record<string, string>) {
  const { email, password } = await makeUser("admin");
  const { cookie } = await signIn(email, password);
  return trpcHttp("apiKeys.create", {
    mutation: true,
    input: { name, role: "viewer" },
    headers: { cookie: cookie ?? "", ...headers },
  });
}

describe("cookie-authenticated writes behind a proxy", () => {
  it("are accepted from QM_BASE_URL's origin when the forwarded Host has lost its port", async () => {
    // nginx's `$host` is the name without the port.
    const res = await createKey("no-port", { origin: PUBLIC.origin, host: PUBLIC.hostname });
    expect(res.status).toBe(200);
    const forwarded = await createKey("forwarded", {
      origin: PUBLIC.origin,
      host: "10.0.1.11:3000",
      "x-forwarded-host": PUBLIC.hostname,
    });
    expect(forwarded.status).toBe(200);
  });

  it("are refused from an origin that only matches the Host it names", async () => {
    // A page on a rebound DNS name sends its own name as both Origin and Host.
    const rebound = await createKey("rebound", { origin: "http://evil.example:8443", host: "evil.example:8443" });
    expect(rebound.status).toBe(403);
    // In the plain HTTP error shape every other refusal outside tRPC and /mcp has.
    expect(rebound.body).toEqual({
      code: "FORBIDDEN",
      message: "Cross-site request refused: the Origin does not match this console.",
    });
    const forged = await createKey("forged", {
      origin: "https://evil.example",
      host: PUBLIC.host,
      "x-forwarded-host": "evil.example",
    });
    expect(forged.status).toBe(403);
    // Same name, another scheme or port: another origin.
    expect((await createKey("scheme", { origin: `https://${PUBLIC.host}`, host: PUBLIC.host })).status).toBe(403);
    expect((await createKey("port", { origin: `http://${PUBLIC.hostname}`, host: PUBLIC.hostname })).status).toBe(403);
    expect((await createKey("opaque", { origin: "null", host: PUBLIC.host })).status).toBe(403);
  });
});
