/**
 * Headers every response carries. The console may not be framed by another site
 * (clickjacking); scripts run only with this response's nonce (Next.js reads it from the
 * request's Content-Security-Policy header and puts it on its own scripts), so injected
 * markup cannot run script; and HSTS once the console is reached over HTTPS.
 */
import { randomBytes } from "node:crypto";

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The script nonce in a Content-Security-Policy (the one the front put on the request). */
export function nonceOf(policy: string | null): string | undefined {
  return policy ? /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1] : undefined;
}

export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': what a nonce-carrying script loads (Next's chunks) may run; nothing else.
    // Development adds eval for React's debugging tools and hot reload.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // Style attributes are how components set widths (budget bars); styles cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: { csp: string; https: boolean }): Record<string, string> {
  return {
    "content-security-policy": options.csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // Only over HTTPS: over plain HTTP browsers ignore it, and an installation on
    // http://127.0.0.1 must not be pinned to a scheme it does not serve.
    ...(options.https ? { "strict-transport-security": "max-age=63072000" } : {}),
  };
}
