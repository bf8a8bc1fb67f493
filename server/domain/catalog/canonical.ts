import { hash } from "node:crypto";

// Canonical JSON is part of the SDK Tool Host contract: the SDK sizes a registration
// exactly as the server does, so both use the one implementation in the SDK package.
export { canonicalJson, canonicalRecord, utf8Bytes } from "@/sdk/src/contract/canonical";

export function sha256(text: string): string {
  // One-shot: a check hashes thousands of small definitions, and a Hash object per call costs more than the hashing.
  return hash("sha256", text, "hex");
}
