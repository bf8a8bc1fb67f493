import { formatBytes, formatCount } from "@/components/ui/format";
import { CHECK_FAILURE_CODES } from "@/server/domain/catalog/failures";
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
  return (CHECK_FAILURE_CODES as Record<string, string>)[code];
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
