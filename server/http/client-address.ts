/**
 * Who is on the other end of a request. The socket's peer is the only address nobody can
 * forge; X-Forwarded-For is believed only when that peer is a configured proxy
 * (QM_TRUSTED_PROXIES), and then read from the right, up to the first hop that is not a
 * trusted proxy: everything left of that hop was written by the client itself.
 */
import type { IncomingMessage } from "node:http";
import { type BlockList, isIP } from "node:net";

/** Set by the front on every request (any value a client sent is replaced): the client's address. */
export const CLIENT_ADDRESS_HEADER = "x-qm-client-address";

/** Headers a client could use to claim another address, host or scheme. */
const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

/** An address as one key: IPv4-mapped IPv6 (how a dual-stack socket reports IPv4 peers) as plain IPv4. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return (mapped?.[1] ?? trimmed).toLowerCase();
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface ClientInfo {
  address: string;
  /** The client reached us over HTTPS (as a trusted proxy says). */
  https: boolean;
}

/** The client's address from the peer and, behind trusted proxies, X-Forwarded-For. */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: BlockList): string {
  let address = normalizeAddress(peer);
  if (!forwardedFor || !isTrusted(address, trusted)) return address;
  const hops = forwardedFor.split(",").map(normalizeAddress);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? "";
    // A trusted proxy writes valid addresses; anything else was the client's own text.
    if (!isIP(hop)) return address;
    address = hop;
    if (!isTrusted(hop, trusted)) return hop;
  }
  return address;
}

/**
 * Resolves the client of a request and rewrites its headers to match: forwarding headers
 * from anyone but a trusted proxy are dropped (so nothing downstream believes them), and
 * CLIENT_ADDRESS_HEADER carries the resolved address.
 */
export function resolveClient(req: IncomingMessage, trusted: BlockList): ClientInfo {
  const peer = normalizeAddress(req.socket.remoteAddress ?? "");
  const viaProxy = isTrusted(peer, trusted);
  const forwarded = req.headers["x-forwarded-for"];
  const address = clientAddress(peer, Array.isArray(forwarded) ? forwarded.join(",") : forwarded, trusted);
  const proto = viaProxy
    ? String(req.headers["x-forwarded-proto"] ?? "")
        .split(",")[0]
        ?.trim()
    : "";
  if (!viaProxy) for (const name of FORWARDING_HEADERS) delete req.headers[name];
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  return { address, https: proto === "https" };
}
