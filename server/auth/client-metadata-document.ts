/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, as the MCP
 * authorization spec 2025-11-25 uses it): a client names an HTTPS URL as its `client_id`,
 * and the authorization server fetches the JSON document there to learn its name and
 * redirect URIs. Built as a `ClientDiscovery` behind the OAuth provider's own client lookup
 * (decision 0080), so every endpoint that looks a client up (authorize, consent, token,
 * revoke) meets the same checks, and the library persists the client as it does others.
 *
 * Anyone can make us fetch a URL by naming it in an authorization request, before anyone
 * signs in: the fetch goes through the Connections' SSRF guard at its `public` reach, is
 * small and short, follows no redirect, and its answers (and failures) are kept a while.
 */
import { isIP } from "node:net";
import type { GenericEndpointContext } from "@better-auth/core";
import type { ClientDiscovery, OAuthClient, OAuthOptions, SchemaClient, Scope } from "@better-auth/oauth-provider";
import {
  isForbiddenCimdClientMetadataField,
  registerClientMetadataDocument,
} from "@better-auth/oauth-provider/internal";
import { APIError } from "better-auth/api";
import { fetch } from "undici";
import { AddressBlocked, guardedDispatcher } from "../domain/catalog/guarded-dispatcher";
import { countThisMinute } from "../domain/rate-limits/admit";
import { loadUrlPolicy } from "../domain/sources/network-policy";
import { blockedHostReason } from "../domain/sources/url-policy";
import { onChange } from "../events";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { LIMITS } from "../limits";
import { log } from "../log";
import { addressKey } from "./sign-in-throttle";

/** Persisted on each client made from a document: the library routes its lookups back here. */
export const CLIENT_METADATA_DISCOVERY_ID = "cimd";

type Client = SchemaClient<Scope[]>;

/** A refusal the authorization endpoint answers with (RFC 6749 `invalid_client`). */
class DocumentRefused extends Error {}

function invalidClient(description: string): APIError {
  return new APIError("BAD_REQUEST", { error: "invalid_client", error_description: description });
}

interface Entry {
  expiresAt: number;
  metadata?: OAuthClient;
  failure?: string;
}

const KEY = Symbol.for("quartermaster.clientMetadataDocuments");
type Holder = { [KEY]?: { entries: Map<string, Entry>; inFlight: Map<string, Promise<OAuthClient>> } };

function store() {
  const holder = globalThis as Holder;
  holder[KEY] ??= { entries: new Map(), inFlight: new Map() };
  return holder[KEY];
}

/** Forgets every kept document and failure: the next lookup of each fetches it again. */
export function forgetClientMetadataDocuments(): void {
  store().entries.clear();
}

// A document kept from an address the admin has just closed must not outlive the change.
onChange("client-metadata-documents", (change) => {
  if (change === "network-policy") forgetClientMetadataDocuments();
});

function keep(clientId: string, entry: Entry): void {
  const { entries } = store();
  entries.delete(clientId);
  // Oldest first: a Map iterates in insertion order.
  while (entries.size >= LIMITS.OAUTH_METADATA_CACHE_ENTRIES.value) {
    const oldest = entries.keys().next().value;
    if (oldest === undefined) break;
    entries.delete(oldest);
  }
  entries.set(clientId, entry);
}

/**
 * Whether a client_id is ours to resolve: any http(s) URL, so that an `http:` one is
 * refused with the reason rather than looked up as an unknown registered client.
 */
function isUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** The URL rules of the draft (§3), and one of ours: the id must be the URL's own spelling. */
function checkClientIdUrl(clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new DocumentRefused("is not at a valid URL");
  }
  if (url.protocol !== "https:")
    throw new DocumentRefused("is not fetched: a client_id URL must use https (TLS is what ties it to its host)");
  if (url.username || url.password)
    throw new DocumentRefused("is not fetched: a client_id URL must not contain credentials");
  if (url.hash || clientId.includes("#"))
    throw new DocumentRefused("is not fetched: a client_id URL must not contain a fragment");
  // Comparing the id with its parsed form refuses dot segments, case and escaping variants:
  // one document, one spelling, one client record.
  if (url.href !== clientId)
    throw new DocumentRefused(`is not fetched: a client_id URL must be written in its normal form (${url.href})`);
  if (url.pathname === "/") throw new DocumentRefused("is not fetched: a client_id URL must have a path");
  return url;
}

function describeFetchFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return `did not answer within ${LIMITS.OAUTH_METADATA_DOCUMENT_MS.value} ms`;
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof AddressBlocked) return `resolves to ${e.address}, ${e.reason}${POLICY_HINT}`;
    if (e instanceof DocumentRefused) return e.message;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && !code.startsWith("UND_ERR_ABORTED")) return `could not be fetched (${code})`;
  }
  return "could not be fetched";
}

const POLICY_HINT =
  "; metadata documents may not be fetched from there unless an admin allows link-local addresses (Tools → Sources → Network policy)";

async function readLimited(body: { getReader(): ReadableStreamDefaultReader } | null, limit: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as ReadableStreamReadResult<Uint8Array>;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new DocumentRefused(`is larger than ${limit} bytes (OAUTH_METADATA_DOCUMENT_BYTES)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Seconds to keep a document, from its Cache-Control, held between our floor and ceiling. */
function keepSeconds(cacheControl: string | null): number {
  const floor = LIMITS.OAUTH_METADATA_CACHE_MIN_SECONDS.value;
  const ceiling = LIMITS.OAUTH_METADATA_CACHE_MAX_SECONDS.value;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl ?? "")?.[1];
  // no-store and no-cache count as the floor: refetching on every lookup would let anyone
  // make us fetch as often as they ask.
  const asked = maxAge === undefined ? floor : Number(maxAge);
  return Math.min(ceiling, Math.max(floor, asked));
}

/** One fetch of the document, through the Connections' guard at the public reach. */
async function fetchDocument(url: URL): Promise<{ raw: unknown; keepSeconds: number }> {
  const policy = await loadUrlPolicy();
  // The guard's resolver never sees an address literal: check it (and metadata host names) first.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!policy.allowLinkLocal) {
    const reason = blockedHostReason(url.hostname, "public");
    if (reason) throw new DocumentRefused(`is on ${isIP(host) ? host : url.hostname}, ${reason}${POLICY_HINT}`);
  }
  const dispatcher = guardedDispatcher(policy.allowLinkLocal, "public");
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("timeout"));
  }, LIMITS.OAUTH_METADATA_DOCUMENT_MS.value);
  try {
    const response = await fetch(url, {
      dispatcher,
      redirect: "manual",
      signal: controller.signal,
      headers: { accept: "application/json" },
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new DocumentRefused(`answered with a redirect (HTTP ${response.status}); a document is served at its URL`);
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new DocumentRefused(`answered HTTP ${response.status}`);
    }
    const type = response.headers.get("content-type") ?? "";
    if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      throw new DocumentRefused(`is not JSON (Content-Type: ${type.slice(0, 80) || "none"})`);
    }
    const limit = LIMITS.OAUTH_METADATA_DOCUMENT_BYTES.value;
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > limit) {
      await response.body?.cancel().catch(() => {});
      throw new DocumentRefused(`is larger than ${limit} bytes (OAUTH_METADATA_DOCUMENT_BYTES)`);
    }
    const text = await readLimited(response.body, limit);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new DocumentRefused("is not valid JSON");
    }
    return { raw, keepSeconds: keepSeconds(response.headers.get("cache-control")) };
  } catch (error) {
    throw new DocumentRefused(describeFetchFailure(error, timedOut));
  } finally {
    clearTimeout(timer);
    await dispatcher.close().catch(() => {});
  }
}

const str = (value: unknown): value is string => typeof value === "string";

/**
 * The document checked strictly (§4.1 and the MCP profile), reduced to the fields the
 * client record takes. The library checks redirect URI shapes again when it persists.
 */
function checkDocument(clientId: string, raw: unknown): OAuthClient {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new DocumentRefused("is not a JSON object");
  const doc = raw as Record<string, unknown>;
  if (doc.client_id !== clientId)
    throw new DocumentRefused(
      `names client_id ${JSON.stringify(String(doc.client_id).slice(0, 200))}, not its own URL; a document must name exactly the URL it is served at`,
    );
  const method = doc.token_endpoint_auth_method ?? "none";
  if (method !== "none")
    throw new DocumentRefused(
      `claims token_endpoint_auth_method ${JSON.stringify(String(method).slice(0, 60))}; a metadata-document client is a public client ("none"): it has no secret to prove`,
    );
  for (const field of Object.keys(doc)) {
    if (field === "client_id" || field === "redirect_uris" || field === "token_endpoint_auth_method") continue;
    // client_secret, and every field only the server may set (disabled, skip_consent, …).
    if (isForbiddenCimdClientMetadataField(field)) throw new DocumentRefused(`must not contain ${field}`);
  }
  if (!str(doc.client_name) || !doc.client_name.trim())
    throw new DocumentRefused("must name the client (client_name): the consent page shows it");
  const redirects = doc.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0 || !redirects.every(str))
    throw new DocumentRefused("must list its redirect_uris (strings, at least one)");
  for (const field of ["logo_uri", "client_uri"] as const) {
    const value = doc[field];
    if (value === undefined) continue;
    if (!str(value) || !URL.canParse(value) || new URL(value).protocol !== "https:")
      throw new DocumentRefused(`gives a ${field} that is not an https URL`);
  }
  const grants = doc.grant_types ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grants) || !grants.every((g) => g === "authorization_code" || g === "refresh_token"))
    throw new DocumentRefused("names grant_types other than authorization_code and refresh_token");
  const responses = doc.response_types ?? ["code"];
  if (!Array.isArray(responses) || !responses.every((r) => r === "code"))
    throw new DocumentRefused("names response_types other than code");
  return {
    client_id: clientId,
    client_name: doc.client_name.trim(),
    redirect_uris: redirects,
    token_endpoint_auth_method: "none",
    grant_types: grants as OAuthClient["grant_types"],
    response_types: responses as OAuthClient["response_types"],
    ...(str(doc.logo_uri) ? { logo_uri: doc.logo_uri } : {}),
    ...(str(doc.client_uri) ? { client_uri: doc.client_uri } : {}),
    ...(str(doc.software_id) ? { software_id: doc.software_id } : {}),
    ...(str(doc.software_version) ? { software_version: doc.software_version } : {}),
  } as OAuthClient;
}

/**
 * Each fetch is one request to someone else's server that a stranger asked for: counted
 * per client address, as registrations are. Not kept as the document's failure, so one
 * address going over cannot deny the document to others.
 */
async function admitFetch(address: string): Promise<void> {
  const limit = LIMITS.OAUTH_METADATA_FETCHES_PER_MINUTE.value;
  const window = await countThisMinute(`oauth-metadata:${addressKey(address)}`);
  if (!window || window.count <= limit) return;
  const seconds = Math.max(1, Math.ceil(window.retryAfterMs / 1000));
  throw new APIError("TOO_MANY_REQUESTS", {
    error: "temporarily_unavailable",
    error_description: `At most ${limit} client metadata documents may be fetched a minute for one address (OAUTH_METADATA_FETCHES_PER_MINUTE). Retry in ${seconds} s.`,
  });
}

/** The document's metadata, from memory while kept, else fetched once for all who ask at once. */
async function documentFor(clientId: string, address: string): Promise<OAuthClient> {
  const { entries, inFlight } = store();
  const kept = entries.get(clientId);
  if (kept && kept.expiresAt > Date.now()) {
    if (kept.failure) throw new DocumentRefused(kept.failure);
    if (kept.metadata) return kept.metadata;
  }
  const pending = inFlight.get(clientId);
  if (pending) return pending;
  // The URL's own rules cost no fetch: refused before the address is charged.
  const url = checkClientIdUrl(clientId);
  await admitFetch(address);
  const raced = inFlight.get(clientId);
  if (raced) return raced;
  const fetching = (async () => {
    try {
      const { raw, keepSeconds } = await fetchDocument(url);
      const metadata = checkDocument(clientId, raw);
      keep(clientId, { metadata, expiresAt: Date.now() + keepSeconds * 1000 });
      return metadata;
    } catch (error) {
      const failure = error instanceof DocumentRefused ? error.message : "could not be fetched";
      if (!(error instanceof DocumentRefused)) log.warn({ err: error, clientId }, "metadata document fetch failed");
      keep(clientId, { failure, expiresAt: Date.now() + LIMITS.OAUTH_METADATA_FAILURE_SECONDS.value * 1000 });
      throw new DocumentRefused(failure);
    }
  })();
  inFlight.set(clientId, fetching);
  try {
    return await fetching;
  } finally {
    inFlight.delete(clientId);
  }
}

function providerOptions(ctx: GenericEndpointContext): OAuthOptions<Scope[]> {
  const plugin = (
    ctx.context as unknown as { getPlugin(id: string): { options?: OAuthOptions<Scope[]> } | null }
  ).getPlugin("oauth-provider");
  if (!plugin?.options) throw new Error("client metadata documents need the OAuth provider plugin");
  return plugin.options;
}

/**
 * Resolves a URL client_id: the stored client while its document is kept (no fetch), or the
 * document fetched, checked and persisted through the library's own registration path
 * (which never gives such a client a secret and keeps an operator's flags on it).
 */
async function resolveClient(ctx: GenericEndpointContext, clientId: string, existing: Client | null) {
  const kept = store().entries.get(clientId);
  const fresh = kept && kept.expiresAt > Date.now() && kept.metadata;
  let metadata: OAuthClient;
  try {
    const headers = ctx.request?.headers ?? ctx.headers;
    metadata = await documentFor(clientId, headers?.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
  } catch (error) {
    if (error instanceof DocumentRefused)
      throw invalidClient(`The client's metadata document (${clientId.slice(0, 300)}) ${error.message}.`);
    throw error;
  }
  if (fresh && existing) return existing;
  const { client } = await registerClientMetadataDocument(ctx, providerOptions(ctx), {
    metadata,
    clientId,
    clientDiscoveryId: CLIENT_METADATA_DISCOVERY_ID,
    existingClient: existing ?? undefined,
  });
  return client;
}

export function clientMetadataDiscovery(): ClientDiscovery {
  return {
    id: CLIENT_METADATA_DISCOVERY_ID,
    matches: isUrlClientId,
    resolve: resolveClient,
    discoveryMetadata: { client_id_metadata_document_supported: true },
  };
}
