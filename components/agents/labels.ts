import { formatBytes, formatCount } from "@/components/ui/format";

export const SOURCE_KIND_LABELS: Record<string, string> = {
  mcp_connection: "MCP Connection",
  sdk_tool_host: "SDK Tool Host",
};

/**
 * Share of the budget. Never rounds up to 100% while still under it, and shows "<1%"
 * rather than a misleading 0% once anything is used.
 */
export function formatPercent(used: number, limit: number): string {
  if (limit <= 0) return "—";
  const p = (used / limit) * 100;
  if (p > 0 && p < 1) return "<1%";
  return `${p < 100 ? Math.floor(p) : Math.round(p)}%`;
}

/** "1.20 MiB of 4.00 MiB (30%)": the words a budget bar stands for. */
export function budgetText(b: { usedBytes: number; limitBytes: number }): string {
  return `${formatBytes(b.usedBytes)} of ${formatBytes(b.limitBytes)} (${formatPercent(b.usedBytes, b.limitBytes)})`;
}

export function toolCount(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "Tool" : "Tools"}`;
}
