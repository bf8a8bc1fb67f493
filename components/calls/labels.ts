/** How the console names a call's outcome; pure, so pages and tests share it. */
export type CallOutcome = "ok" | "is_error" | "failed";

export const OUTCOME_LABELS: Record<CallOutcome, string> = {
  ok: "OK",
  is_error: "Tool error",
  failed: "Failed",
};

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatRate(rate: number): string {
  if (rate === 0) return "0%";
  if (rate < 0.001) return "<0.1%";
  return `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}
