/** Numbers and sizes as refusal messages write them: "16.0 KiB (16,413 bytes)". */
const nf = new Intl.NumberFormat("en");
export const fmt = (n: number) => nf.format(n);
export function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MiB (${fmt(n)} bytes)`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB (${fmt(n)} bytes)`;
  return `${fmt(n)} bytes`;
}
