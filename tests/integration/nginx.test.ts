/**
 * The console through Debian's nginx with the config docs/deploy.md gives, on a public URL
 * with a port: sign-in and cookie-authenticated writes pass, another origin is refused.
 * CI installs nginx (.ci/run); elsewhere the file is skipped when nginx is missing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const PROXY_PORT = await vi.hoisted(async () => {
  const { execFileSync } = await import("node:child_process");
  // A free loopback port, chosen before the environment is read: QM_BASE_URL names it.
  const port = Number(
    execFileSync(process.execPath, [
      "-e",
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ])
      .toString()
      .trim(),
  );
  process.env.QM_BASE_URL = `http://127.0.0.1:${port}`;
  return port;
});

import { makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { type Nginx, nginxAvailable, startNginx } from "../helpers/nginx";

const required = process.env.CI === "1" || process.env.CI === "true";
if (required && !nginxAvailable()) throw new Error("CI needs Debian's nginx: apt-get install -y nginx (.ci/run does)");

withTestDatabase();

type App = Awaited<ReturnType<typeof serveApp>>;
let apps: App[] = [];
let nginx: Nginx;

describe.skipIf(!nginxAvailable())("behind nginx with the documented config", () => {
  beforeAll(async () => {
    apps = [await serveApp({ trustedProxies: ["127.0.0.1"] }), await serveApp({ trustedProxies: ["127.0.0.1"] })];
    nginx = await startNginx(
      PROXY_PORT,
      apps.map((a) => `127.0.0.1:${a.port}`),
    );
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const app of apps) await app.close();
  });

  async function signedIn(): Promise<string> {
    const { email, password } = await makeUser("admin");
    const res = await fetch(`${nginx.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: nginx.url },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  function createKey(cookie: string, origin: string, name: string) {
    return fetch(`${nginx.url}/api/trpc/apiKeys.create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin },
      body: JSON.stringify({ json: { name, role: "viewer" } }),
    });
  }

  it("a signed-in console writes through it, on every instance", async () => {
    const cookie = await signedIn();
    // nginx's round robin: consecutive writes land on both instances.
    for (let i = 0; i < 4; i++) expect((await createKey(cookie, nginx.url, `through-nginx-${i}`)).status).toBe(200);
  });

  it("a write from another origin is refused with the cross-site message", async () => {
    const cookie = await signedIn();
    const res = await createKey(cookie, "http://evil.example", "evil");
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/Cross-site request refused/);
  });
});
