/** Numbers and sizes as refusal messages write them: "16.0 KiB (16,413 bytes)". */
const nf = new Intl.NumberFormat("en");
export const fmt = (n: number) => nf.format(n);

/** A size in the largest unit it reaches: "512 bytes", "16.0 KiB", "1.25 MiB" (the console's columns). */
export function fmtSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${fmt(n)} bytes`;
}

/** A size with its exact count beside it, where the count matters (a limit, a refusal). */
export function fmtBytes(n: number): string {
  return n >= 1024 ? `${fmtSize(n)} (${fmt(n)} bytes)` : fmtSize(n);
}
