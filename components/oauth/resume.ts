/**
 * The authorization server sends a person without a session to /sign-in with the client's
 * request (signed). Once signed in, the request is simply asked again: its parameters are
 * the client's own, and the library checks them all anew. Our signature fields are dropped.
 */
const LIBRARY_FIELDS = new Set(["sig", "exp", "ba_iat", "ba_param", "ba_pl"]);

function entries(query: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.entries(query).flatMap(([k, v]) =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]],
  );
}

/** Whether a sign-in page was reached by an OAuth authorization (it carries a client and a signature). */
export function isOAuthSignIn(query: Record<string, string | string[] | undefined>): boolean {
  return typeof query.client_id === "string" && typeof query.sig === "string";
}

export function resumePath(query: Record<string, string | string[] | undefined>): string {
  return `/oauth/resume?${new URLSearchParams(entries(query)).toString()}`;
}

export function resumeAuthorization(query: Record<string, string | string[] | undefined>): string {
  const kept = entries(query).filter(([k]) => !LIBRARY_FIELDS.has(k));
  return `/api/auth/oauth2/authorize?${new URLSearchParams(kept).toString()}`;
}
