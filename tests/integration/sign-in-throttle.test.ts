/**
 * Console sign-in under attack: guessing is slowed (per account and client address, per
 * address, per account), forged X-Forwarded-For buys nothing, the counters live in the
 * database so every instance enforces them, and the owner is not locked out.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/server/limits";
import { makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

type App = Awaited<ReturnType<typeof serveApp>>;
let direct: App;
let behindProxy: App;
beforeAll(async () => {
  direct = await serveApp();
  behindProxy = await serveApp({ trustedProxies: ["127.0.0.1"] });
});
afterAll(async () => {
  await direct?.close();
  await behindProxy?.close();
});

/** A sign-in over real HTTP, from loopback address `from` (127.0.0.0/8 all reach us). */
function signIn(
  app: App,
  email: string,
  password: string,
  options: { from?: string; forwardedFor?: string } = {},
): Promise<{ status: number; retryAfter: number | null; message: string }> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: app.port,
        path: "/api/auth/sign-in/email",
        method: "POST",
        localAddress: options.from ?? "127.0.0.1",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          origin: app.url,
          ...(options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => {
          const retry = res.headers["retry-after"];
          let message = "";
          try {
            message = (JSON.parse(text) as { message?: string }).message ?? "";
          } catch {}
          resolve({ status: res.statusCode ?? 0, retryAfter: retry ? Number(retry) : null, message });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const randomAddress = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}, 198.51.100.${randomBytes(1)[0]}`;

describe("console sign-in", () => {
  it("from rotating X-Forwarded-For values is limited like any one client, and the owner still signs in", async () => {
    const owner = await makeUser("admin");
    const answers = [];
    for (let i = 0; i < 30; i++) {
      const answer = await signIn(direct, owner.email, `wrong-guess-${i}`, { forwardedFor: randomAddress() });
      answers.push(answer);
      if (answer.status === 429 && answers.filter((a) => a.status === 429).length === 1) {
        // Another instance on the same database refuses the guesser too: the counters are shared.
        const other = await serveApp();
        try {
          expect((await signIn(other, owner.email, "wrong-guess-elsewhere")).status).toBe(429);
        } finally {
          await other.close();
        }
      }
    }
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(LIMITS.SIGN_IN_FREE_FAILURES.value + 4);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(refused[0]?.retryAfter).toBeGreaterThan(0);
    expect(refused[0]?.message).toMatch(/^Too many failed sign-ins for this account\. Try again in \d+ seconds?\.$/);

    // The owner, from their own address: not locked out by someone else's guessing.
    expect((await signIn(direct, owner.email, owner.password, { from: "127.0.0.2" })).status).toBe(200);
  });

  it("a burst of parallel guesses cannot all be tried before the first failure counts", async () => {
    const target = await makeUser("operator");
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(direct, target.email, `parallel-${i}`, { from: "127.0.0.3" })),
    );
    // The free failures, and the few the shortest back-offs let through while the burst lasts.
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(LIMITS.SIGN_IN_FREE_FAILURES.value + 3);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(30);
  });

  it("behind a trusted proxy, guesses from many addresses slow newcomers to the account, never its owner's address", async () => {
    const owner = await makeUser("admin");
    const home = "198.51.100.77";
    expect((await signIn(behindProxy, owner.email, owner.password, { forwardedFor: home })).status).toBe(200);

    // Guesses from ever new addresses, until the account-wide back-off holds for seconds.
    let held = 0;
    for (let i = 0; i < 80 && held < 4; i++) {
      const answer = await signIn(behindProxy, owner.email, `botnet-${i}`, { forwardedFor: `203.0.113.${i + 1}` });
      if (answer.status === 429) {
        expect(answer.message).toMatch(/for this account/);
        held = answer.retryAfter ?? 0;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(held).toBeGreaterThanOrEqual(4);

    // The owner's own address skips the account-wide back-off…
    expect((await signIn(behindProxy, owner.email, owner.password, { forwardedFor: home })).status).toBe(200);
    // …a new address waits, for a bounded time, even with the right password.
    const newcomer = await signIn(behindProxy, owner.email, owner.password, { forwardedFor: "192.0.2.200" });
    expect(newcomer.status).toBe(429);
    expect(newcomer.retryAfter).toBeLessThanOrEqual(LIMITS.SIGN_IN_BACKOFF_MAX_SECONDS.value);
  });
});
