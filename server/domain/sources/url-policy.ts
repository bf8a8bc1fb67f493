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

/** Expands an IPv6 address (a valid one: isIP said 6) to eight 16-bit groups. */
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

const quad = (b: readonly number[]) => b.map((x) => x & 255).join(".");

/**
 * The IPv4 addresses an IPv6 address stands for: every form that carries one, because a
 * gateway, a tunnel or the host's own stack may deliver the packet to it. Each with the
 * form's name, for the reason shown to the operator.
 */
function embeddedIpv4(g: readonly number[]): Array<[ipv4: string, form: string, fixedLayout: boolean]> {
  const b = g.flatMap((x) => [x >> 8, x & 255]);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const low = quad(b.slice(12, 16));
  // fixedLayout: the form has one place for the IPv4 address, so even zeros there are one.
  const found: Array<[string, string, boolean]> = [];
  if (zero(0, 5) && g[5] === 0xffff) found.push([low, "an IPv4-mapped address", true]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) found.push([low, "an IPv4-translated address", true]);
  // ::a.b.c.d (deprecated IPv4-compatible); :: and ::1 are the unspecified and loopback addresses.
  if (zero(0, 6) && !(g[6] === 0 && (g[7] ?? 0) <= 1)) found.push([low, "an IPv4-compatible address", true]);
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (zero(2, 6)) found.push([low, "a NAT64 address (64:ff9b::/96)", true]);
    if (g[2] === 1) {
      // Local-use NAT64 (64:ff9b:1::/48): the operator picks the prefix length, so every
      // RFC 6052 layout that fits inside it counts.
      for (const bytes of [
        [b[6], b[7], b[9], b[10]],
        [b[7], b[9], b[10], b[11]],
        [b[9], b[10], b[11], b[12]],
        [b[12], b[13], b[14], b[15]],
      ])
        found.push([quad(bytes as number[]), "a NAT64 address (64:ff9b:1::/48)", false]);
    }
  }
  if (g[0] === 0x2002) found.push([quad(b.slice(2, 6)), "a 6to4 address (2002::/16)", true]);
  if (g[0] === 0x2001 && g[1] === 0) {
    found.push([quad(b.slice(4, 8)), "a Teredo server address (2001::/32)", false]);
    found.push([quad(b.slice(12, 16).map((x) => ~x)), "a Teredo client address (2001::/32)", false]);
  }
  if (((g[4] ?? 0) & 0xfdff) === 0 && g[5] === 0x5efe) found.push([low, "an ISATAP address", false]);
  return found;
}

/** IPv6 metadata endpoints: AWS (fd00:ec2::254) and Google Cloud (fd20:ce::254). */
const CLOUD_METADATA_V6: Array<[groups: number[], name: string]> = [
  [[0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], "fd00:ec2::254, AWS"],
  [[0xfd20, 0x00ce, 0, 0, 0, 0, 0, 0x0254], "fd20:ce::254, Google Cloud"],
];

/**
 * How far a request may reach. `connections`: what an operator's MCP Connection may reach
 * (loopback and private networks too: internal MCP servers are the common case).
 * `public`: a fetch anyone can cause, such as an OAuth client's metadata document named in
 * an unauthenticated authorization request, which must not become a way to probe the
 * host's own network; loopback, private and shared (CGNAT) ranges are refused as well.
 */
export type Reach = "connections" | "public";

function privateV4Reason(ip: string): string | null {
  if (inV4(ip, "127.0.0.0/8")) return "loopback (127.0.0.0/8)";
  for (const cidr of ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"])
    if (inV4(ip, cidr)) return `a private address (${cidr})`;
  if (inV4(ip, "100.64.0.0/10")) return "shared address space (100.64.0.0/10, carrier-grade NAT)";
  return null;
}

/** Why an address is refused, or null when a request of this reach may go to it. */
export function blockedAddressReason(ip: string, reach: Reach = "connections"): string | null {
  const family = isIP(ip.split("%")[0] ?? "");
  if (family === 4) {
    if (inV4(ip, "169.254.0.0/16")) return "link-local (169.254.0.0/16, where cloud metadata services live)";
    if (inV4(ip, "0.0.0.0/8")) return "the unspecified network 0.0.0.0/8";
    const metadata = CLOUD_METADATA_V4[ip];
    if (metadata) return `a cloud metadata endpoint (${ip}, ${metadata})`;
    return reach === "public" ? privateV4Reason(ip) : null;
  }
  if (family === 6) {
    const g = ipv6Groups(ip);
    if (g.every((x) => x === 0)) return "the unspecified address ::";
    if ((g[0]! & 0xffc0) === 0xfe80) return "IPv6 link-local (fe80::/10)";
    for (const [groups, name] of CLOUD_METADATA_V6) {
      if (groups.every((x, i) => g[i] === x)) return `a cloud metadata endpoint (${name})`;
    }
    if (reach === "public") {
      if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "IPv6 loopback (::1)";
      if ((g[0]! & 0xfe00) === 0xfc00) return "an IPv6 unique local address (fc00::/7)";
      if ((g[0]! & 0xffc0) === 0xfec0) return "an IPv6 site-local address (fec0::/10)";
    }
    // An IPv6 form of a refused IPv4 address is refused with it: ::ffff:0.0.0.0 reaches the
    // host itself through a dual-stack socket, as 0.0.0.0 does. Only where a form's layout is
    // a guess (local-use NAT64, Teredo, ISATAP) are zeros left alone: there they are
    // usually the prefix, not an address.
    for (const [ipv4, form, fixedLayout] of embeddedIpv4(g)) {
      if (!fixedLayout && inV4(ipv4, "0.0.0.0/8")) continue;
      // A guessed layout reads a private-looking address out of many public ones.
      const reason = blockedAddressReason(ipv4, fixedLayout ? reach : "connections");
      if (reason) return `${form} of ${ipv4}, ${reason}`;
    }
    return null;
  }
  return null;
}

/** Why a URL's host (a name or an address literal, as URL.hostname gives it) is refused, or null. */
export function blockedHostReason(hostname: string, reach: Reach = "connections"): string | null {
  // "metadata.google.internal." is the same host as without the dot (a fully qualified name).
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.+$/, "");
  if (BLOCKED_HOSTNAMES.has(host)) return "a cloud metadata host name";
  return blockedAddressReason(host, reach);
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
    const reason = blockedHostReason(url.hostname);
    const host = url.hostname.replace(/^\[|\]$/g, "");
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
