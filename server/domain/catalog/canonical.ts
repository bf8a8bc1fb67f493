import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted and no whitespace: the same value always serializes to
 * the same bytes, so sizes and hashes do not depend on how a server ordered its keys.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v as Record<string, unknown>).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
