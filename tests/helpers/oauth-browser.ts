/**
 * A person's part of an OAuth sign-in over real HTTP: signing in to the console, the
 * browser following the authorization URL with its cookie, and the consent page's approval.
 */
import http from "node:http";
import { expect } from "vitest";

export async function signInOverHttp(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * A top-level navigation, as the person's browser makes it. Not fetch: it always sends
 * `Sec-Fetch-Mode: cors`, which the authorization server answers with JSON for scripts.
 */
export function browserGet(
  url: URL | string,
  cookie: string,
): Promise<{ status: number; location: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, accept: "text/html", "sec-fetch-mode": "navigate" } }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, body }));
      })
      .on("error", reject);
  });
}

/** The browser's part: the authorization URL followed with the person's cookie, to our page. */
export async function toApprovalPage(base: string, url: URL | string, cookie: string): Promise<URL> {
  const res = await browserGet(url, cookie);
  expect(res.status, res.body).toBe(302);
  return new URL(res.location ?? "", base);
}

/** The consent page's one action, posted as our page posts it (or from another origin). */
export async function approveAt(
  base: string,
  page: URL,
  cookie: string,
  body: Record<string, unknown>,
  origin = base,
): Promise<Response> {
  return fetch(`${base}/api/oauth/approve`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin },
    body: JSON.stringify({ oauth_query: page.search.slice(1), ...body }),
  });
}
