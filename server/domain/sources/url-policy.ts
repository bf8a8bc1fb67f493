/**
 * Which addresses an MCP Connection may reach. A Connection is a server-side request
 * made on an operator's behalf, so it must not become a way into the host's own
 * internals: link-local ranges and cloud metadata endpoints are refused unless an
 * admin allows them. Loopback and private ranges stay allowed: internal MCP servers
 * are the common case.
 */
import { isIP } from "node:net";
import { DomainError } from "../../errors";

/** Metadata and host-agent endpoints outside 169.254.0.0/16. */
const CLOUD_METADATA_V4: Record<string, string> = {
  "100.100.100.200": "Alibaba Cloud",
  "168.63.129.16": "Azure's host agent",
  "192.0.0.192": "Oracle Cloud",
};

const BLOCKED_HOSTNAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data"]);

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

function inV4(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/") as [string, string];
  const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
  return (ipv4ToInt(ip) & mask) === (ipv4ToInt(base) & mask);
}

/** Expands an IPv6 address to eight 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  let address = ip.toLowerCase().split("%")[0] ?? "";
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4?.[1]) {
    const n = ipv4ToInt(v4[1]);
    address = address.replace(v4[1], `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`);
  }
  const [head, tail] = address.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g || "0", 16));
}

/** Why an address is refused, or null when a Connection may reach it. */
export function blockedAddressReason(ip: string): string | null {
  const family = isIP(ip);
  if (family === 4) {
    if (inV4(ip, "169.254.0.0/16")) return "link-local (169.254.0.0/16, where cloud metadata services live)";
    if (inV4(ip, "0.0.0.0/8")) return "the unspecified network 0.0.0.0/8";
    const metadata = CLOUD_METADATA_V4[ip];
    if (metadata) return `a cloud metadata endpoint (${ip}, ${metadata})`;
    return null;
  }
  if (family === 6) {
    const g = ipv6Groups(ip);
    if (g.every((x) => x === 0)) return "the unspecified address ::";
    if ((g[0]! & 0xffc0) === 0xfe80) return "IPv6 link-local (fe80::/10)";
    if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x0254)
      return "a cloud metadata endpoint (fd00:ec2::254)";
    // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d, which a NAT64 gateway
    // forwards to a.b.c.d) inherit the IPv4 rules.
    const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
    const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
    if (mapped || nat64) {
      return blockedAddressReason(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`);
    }
    return null;
  }
  return null;
}

export interface UrlPolicy {
  allowLinkLocal: boolean;
}

/** Validates a Connection URL as an operator typed it; throws INVALID_INPUT naming the rule. */
export function checkConnectionUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError("INVALID_INPUT", "url: must be an absolute URL such as https://mcp.example.com/mcp", {
      field: "url",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new DomainError("INVALID_INPUT", `url: must use http or https, not ${url.protocol.replace(":", "")}`, {
      field: "url",
    });
  }
  if (url.username || url.password) {
    throw new DomainError("INVALID_INPUT", "url: must not contain credentials; send them as an auth header instead", {
      field: "url",
    });
  }
  if (!policy.allowLinkLocal) {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const reason = BLOCKED_HOSTNAMES.has(host) ? "a cloud metadata host name" : blockedAddressReason(host);
    if (reason) {
      throw new DomainError(
        "INVALID_INPUT",
        `url: ${host} is ${reason}; Connections may not reach it unless an admin allows link-local addresses (Tools → Sources → Network policy).`,
        { field: "url" },
      );
    }
  }
  return url;
}
