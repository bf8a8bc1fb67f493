/**
 * Dynamic client registration (RFC 7591) over real HTTP: open, but limited per client
 * address across instances (OAUTH_REGISTRATIONS_PER_MINUTE), and an admin can turn it off.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { resetAuth } from "@/server/auth";
import { getDb } from "@/server/db";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();
let app: Awaited<ReturnType<typeof serveApp>>;

beforeAll(async () => {
  app = await serveApp();
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = app.url;
  resetAuth();
});
afterAll(async () => {
  (env as { QM_BASE_URL?: string }).QM_BASE_URL = undefined;
  resetAuth();
  await app.close();
});

const METADATA = JSON.stringify({
  client_name: "Registering client",
  // A desktop client: loopback redirects are for native clients (RFC 8252).
  application_type: "native",
  redirect_uris: ["http://127.0.0.1:49155/callback"],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code"],
  response_types: ["code"],
});

/** A registration sent from a given loopback address (127.0.0.0/8 is all this host's). */
function register(from = "127.0.0.1", headers: Record<string, string> = {}, path = "/api/auth/oauth2/register") {
  const url = new URL(path, app.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = http.request(
        url,
        {
          method: "POST",
          localAddress: from,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(METADATA), ...headers },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }),
          );
        },
      );
      req.on("error", reject);
      req.end(METADATA);
    },
  );
}

/** The window is a calendar minute: start well inside one so a test's burst is not split. */
async function startOfAMinute() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 500));
}

describe("dynamic client registration", () => {
  it("is limited per client address, and a forged X-Forwarded-For does not get round it", async () => {
    await startOfAMinute();
    const limit = LIMITS.OAUTH_REGISTRATIONS_PER_MINUTE.value;
    for (let i = 0; i < limit; i++) {
      const ok = await register("127.0.0.3", { "x-forwarded-for": `203.0.113.${i}` });
      expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      expect(ok.body.client_id).toBeTruthy();
    }
    const refused = await register("127.0.0.3", { "x-forwarded-for": "198.51.100.7" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("temporarily_unavailable");
    expect(String(refused.body.error_description)).toMatch(/OAUTH_REGISTRATIONS_PER_MINUTE/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // The path spelled otherwise, from the same address: refused as well.
    for (const path of ["/api/auth/oauth2/register/", "/api/auth//oauth2/register", "/api/auth/OAuth2/Register"])
      expect((await register("127.0.0.3", {}, path)).status, path).toBeGreaterThanOrEqual(400);
    // Another address registers as before.
    expect((await register("127.0.0.4")).status).toBeLessThan(300);
  });

  it("can be turned off by an admin only: refused with a reason, audited, and on again", async () => {
    const viewer = await makeUser("viewer");
    const operator = await makeUser("operator");
    const admin = await makeUser("admin");
    expect(await callerFor(viewer.actor).identities.clientRegistration()).toMatchObject({ enabled: true });
    await expect(callerFor(operator.actor).identities.setClientRegistration({ enabled: false })).rejects.toThrow(
      /admin/i,
    );
    await callerFor(admin.actor).identities.setClientRegistration({ enabled: false });
    const off = await register("127.0.0.5");
    expect(off.status).toBe(403);
    expect(off.body.error).toBe("access_denied");
    expect(String(off.body.error_description)).toMatch(/turned off.*Bearer <token>/);
    const db = await getDb();
    const clients = await db.oauthClient.count({ where: { name: "Registering client" } });
    expect((await register("127.0.0.5")).status).toBe(403);
    expect(await db.oauthClient.count({ where: { name: "Registering client" } })).toBe(clients);
    const audit = await db.auditEvent.findFirst({
      where: { action: "settings.oauth_client_registration" },
      orderBy: { at: "desc" },
    });
    expect(audit?.details).toEqual({ enabled: false });

    await callerFor(admin.actor).identities.setClientRegistration({ enabled: true });
    expect((await register("127.0.0.5")).status).toBeLessThan(300);
  });
});
