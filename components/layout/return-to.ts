/**
 * Where sign-in sends a user back to: the console page they asked for, as a path on this
 * origin only. Anything else (another origin, "//host", a backslash trick, the sign-in page
 * itself, an API route) falls back to the catalog, so the parameter cannot redirect off-site.
 */
export const RETURN_PARAM = "next";
export const AFTER_SIGN_IN = "/tools/catalog";

const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

export function safeReturnPath(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000) return AFTER_SIGN_IN;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || hasControl(raw)) return AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(raw, "http://same.invalid");
  } catch {
    return AFTER_SIGN_IN;
  }
  if (url.origin !== "http://same.invalid") return AFTER_SIGN_IN;
  if (/^\/(sign-in|api|mcp|_next)(\/|$)/.test(url.pathname)) return AFTER_SIGN_IN;
  // Next's own RSC marker is not part of the page's address.
  url.searchParams.delete("_rsc");
  const query = url.searchParams.toString();
  return `${url.pathname}${query ? `?${query}` : ""}${url.hash}`;
}

/** The sign-in page's address that returns to `path` afterwards. */
export function signInFor(path: string | null | undefined): string {
  const back = safeReturnPath(path);
  return back === AFTER_SIGN_IN ? "/sign-in" : `/sign-in?${RETURN_PARAM}=${encodeURIComponent(back)}`;
}
