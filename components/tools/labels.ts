import { formatBytes, formatCount } from "@/components/ui/format";
import { CHECK_FAILURE_CODES, isCheckFailureCode } from "@/universal/error-codes";
import type { SourceKind } from "./types";

export const KIND_LABELS: Record<SourceKind, string> = {
  mcp_connection: "MCP Connection",
  sdk_tool_host: "SDK Tool Host",
};

export const CHECK_INTERVAL_OPTIONS = [
  { seconds: 300, label: "Every 5 minutes" },
  { seconds: 900, label: "Every 15 minutes" },
  { seconds: 3600, label: "Every hour" },
  { seconds: 21_600, label: "Every 6 hours" },
  { seconds: 86_400, label: "Every 24 hours" },
] as const;
export const DEFAULT_CHECK_INTERVAL = 3600;

export const HEARTBEAT_TIMEOUT_OPTIONS = [
  { seconds: 30, label: "30 seconds" },
  { seconds: 60, label: "1 minute" },
  { seconds: 120, label: "2 minutes" },
  { seconds: 300, label: "5 minutes" },
  { seconds: 900, label: "15 minutes" },
  { seconds: 3600, label: "1 hour" },
] as const;
export const DEFAULT_HEARTBEAT_TIMEOUT = 120;

export const TRIGGER_LABELS: Record<string, string> = {
  schedule: "Scheduled",
  manual: "Check now",
  registration: "Registration",
  create: "On creation",
};

export function intervalLabel(seconds: number | null): string {
  if (!seconds) return "—";
  return CHECK_INTERVAL_OPTIONS.find((o) => o.seconds === seconds)?.label ?? `Every ${formatSeconds(seconds)}`;
}

/** "5 min", "1 h", "90 s": compact durations for intervals and timeouts. */
export function formatSeconds(total: number): string {
  if (total < 60) return `${total} s`;
  if (total < 3600) return total % 60 === 0 ? `${total / 60} min` : `${Math.floor(total / 60)} min ${total % 60} s`;
  if (total % 3600 === 0) return `${total / 3600} h`;
  return `${Math.floor(total / 3600)} h ${Math.round((total % 3600) / 60)} min`;
}

/** Elapsed time of a running or finished check: "0.8 s", "12 s", "2 min 5 s". */
export function formatElapsed(ms: number): string {
  if (ms < 100) return "< 0.1 s";
  if (ms < 10_000) return `${(Math.max(ms, 0) / 1000).toFixed(1)} s`;
  return formatSeconds(Math.round(ms / 1000));
}

export function failureCodeDescription(code: string): string | undefined {
  return isCheckFailureCode(code) ? CHECK_FAILURE_CODES[code].doc : undefined;
}

function measure(value: unknown, unit: string | undefined): string {
  if (typeof value !== "number") return [String(value), unit].filter(Boolean).join(" ");
  if (unit === "bytes") return `${formatBytes(value)} (${formatCount(value)} bytes)`;
  if (unit === "ms") return `${(value / 1000).toFixed(1)} s`;
  return [formatCount(value), unit].filter(Boolean).join(" ");
}

/**
 * The facts a failure carries, in words: "measured 4.10 MiB … · limit 4.00 MiB …",
 * plus the Tool and page it happened at. Empty when the failure has no measured limit.
 */
export function failureFacts(details: Record<string, unknown> | null | undefined): string[] {
  if (!details) return [];
  const unit = typeof details.unit === "string" ? details.unit : undefined;
  const facts: string[] = [];
  if (details.measured !== undefined && details.measured !== null) {
    facts.push(
      details.limit !== undefined
        ? `measured ${measure(details.measured, unit)} · limit ${measure(details.limit, unit)}`
        : `measured ${measure(details.measured, unit)}`,
    );
  } else if (details.limit !== undefined) {
    facts.push(`limit ${measure(details.limit, unit)}`);
  }
  if (typeof details.tool === "string")
    facts.push(`Tool “${details.tool.length > 80 ? `${details.tool.slice(0, 80)}…` : details.tool}”`);
  if (typeof details.page === "number") facts.push(`on page ${formatCount(details.page)}`);
  return facts;
}

/**
 * What to try first for a failure, in the operator's words: the code says what broke, the
 * hint says where to look. HTTP errors get a hint per status.
 */
export function failureHint(code: string, details?: Record<string, unknown> | null): string | undefined {
  if (code === "CATALOG_HTTP_ERROR") {
    const status = typeof details?.status === "number" ? details.status : Number(details?.measured);
    if (status === 404)
      return "Check the path: nothing answers at this URL. MCP servers usually serve Streamable HTTP at /mcp; a moved or renamed endpoint answers 404.";
    if (status === 405)
      return "Check the path: this URL does not take POST. It may be an SSE endpoint (/sse) or a web page rather than the Streamable HTTP endpoint.";
    if (status === 403)
      return "Check the headers: the server knows the credentials but refuses them for this endpoint (scope or role).";
    if (status === 406 || status === 415)
      return "The server refused the request's format: it may not speak Streamable HTTP. Check the URL points at its MCP endpoint.";
    if (status === 429)
      return "The server is rate-limiting Quartermaster: check less often (Edit → check interval) or raise its limit.";
    if (status >= 500)
      return "The server failed on its side: look at its logs. The next scheduled check retries; Check now retries at once.";
    return "Check the URL and the server's own logs for why it refused the request.";
  }
  return FAILURE_HINTS[code];
}

const FAILURE_HINTS: Record<string, string> = {
  CATALOG_UNAUTHORIZED:
    "Check the headers: the token may have expired or been revoked, or the header name is wrong (Authorization: Bearer …). Edit the Connection to enter it again.",
  CATALOG_TRANSPORT_ERROR:
    "Check the host and port, that the server is running, and that Quartermaster's machine can reach it (DNS, firewall, TLS certificate).",
  CATALOG_TIMEOUT:
    "The server is slow or its catalog very large: check how long its tools/list takes, and whether it pages large catalogs.",
  CATALOG_ADDRESS_BLOCKED:
    "The URL resolves to a loopback, private or link-local address Connections may not reach. Use the server's public address; an admin can allow link-local addresses under Network policy.",
  CATALOG_REMOTE_ERROR: "The server refused tools/list with a JSON-RPC error: its logs say why.",
  CATALOG_MALFORMED_RESPONSE:
    "Check the URL is the server's MCP endpoint (not a web page or a proxy's error page) and that it speaks Streamable HTTP.",
  CATALOG_CURSOR_LOOP: "A bug in the server's paging: report it to the server's owner with the cursor shown.",
  CATALOG_DUPLICATE_TOOL_NAME: "A bug in the server: two Tools share one name. Ask its owner to rename one.",
  CATALOG_TOO_MANY_PAGES:
    "Ask the server's owner for larger pages: the catalog needs more pages than a check may read.",
  CATALOG_TOO_MANY_TOOLS: "Split the server's Tools across several servers, each its own Connection.",
  CATALOG_TOO_LARGE: "Shorten the Tools' descriptions and schemas, or split the server across several Connections.",
  CATALOG_RESPONSE_TOO_LARGE: "Ask the server's owner for smaller pages of tools/list.",
  TOOL_DEFINITION_TOO_LARGE: "Shorten the named Tool's description or schema where it is defined.",
  TOOL_NAME_INVALID: "Rename the named Tool where it is defined (1–128 characters).",
  TOOL_DESCRIPTION_TOO_LONG: "Shorten the named Tool's description where it is defined.",
  TOOL_SCHEMA_TOO_DEEP: "Flatten the named Tool's schema where it is defined.",
  TOOL_SCHEMA_TOO_LARGE: "Simplify the named Tool's schema where it is defined.",
  TOOL_DEFINITION_TOO_DEEP: "Flatten the named Tool's annotations or _meta where it is defined.",
  CATALOG_CHECK_FAILED: "Quartermaster itself failed: the server log has the details under this check's time.",
  TOO_MANY_TOOLS: "Register fewer Tools from this host, or split them across several hosts.",
  REQUEST_BODY_TOO_LARGE: "Register fewer or smaller Tools in one request.",
  SOURCE_PAUSED: "Resume the host to accept its registrations again.",
};
