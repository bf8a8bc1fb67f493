/** Times in the errors an agent reads: absolute (UTC, to the minute) and relative, never a raw ISO stamp. */

/** "2026-12-01 21:25 UTC (3 hours ago)": a time a model and a person can both read. */
export function readableTime(at: Date, now: Date): string {
  const stamp = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 1) return `${stamp} (just now)`;
  const [n, unit] =
    abs < 90
      ? [Math.max(1, Math.round(abs)), "second"]
      : abs < 5400
        ? [Math.round(abs / 60), "minute"]
        : abs < 129_600
          ? [Math.round(abs / 3600), "hour"]
          : [Math.round(abs / 86_400), "day"];
  const span = `${n} ${unit}${n === 1 ? "" : "s"}`;
  return `${stamp} (${seconds < 0 ? `${span} ago` : `in ${span}`})`;
}
