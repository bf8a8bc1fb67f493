const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const absolute = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return absolute.format(new Date(value));
}

/** "3 minutes ago", falling back to the date past a week. */
export function formatRelative(value: Date | string | null | undefined, now = Date.now()): string {
  if (!value) return "never";
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), "hour");
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return absolute.format(new Date(value));
}

/**
 * Sizes in the words the server's messages use (one formatter, universal/format.ts): the
 * console's own rounding ("512 B", "12 KiB") disagreed with them on the same number.
 */
export { fmtSize as formatBytes } from "@/universal/format";

// One formatter: constructing one per call costs more than formatting (lists call this per row).
const count = new Intl.NumberFormat("en");

export function formatCount(n: number): string {
  return count.format(n);
}
