/**
 * Encryption at rest for Source connection headers: AES-256-GCM with a key derived
 * (HKDF-SHA256) from the installation secret, a fresh 96-bit IV per value and a 128-bit
 * tag. Each value is bound to the row it belongs to (the Source id is the additional
 * authenticated data), so a blob copied into another Source's row, whose URL someone
 * else chose, does not decrypt there. The format carries a version so the scheme can
 * change without guessing.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { installationSecret } from "./secrets";

const VERSION = "v2";
/** Written before values were bound to their Source; only read to re-seal them (resealLegacy). */
const LEGACY_VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
let cachedKey: { secret: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = installationSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "quartermaster", "source-headers/v1", 32)) };
  }
  return cachedKey.key;
}

/**
 * A 32-byte key for one purpose, derived from the installation secret, so every instance
 * sharing QM_SECRET derives the same one and no two purposes share a key.
 */
export function purposeKey(purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", installationSecret(), "quartermaster", purpose, 32));
}

const aad = (boundTo: string) => Buffer.from(`quartermaster:${boundTo}`, "utf8");

/** Seals a JSON value for the row `boundTo` (a Source id). */
export function encryptJson(value: unknown, boundTo: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key(), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(boundTo));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

function open(payload: string, boundTo: string | null): Buffer {
  const raw = Buffer.from(payload, "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("Encrypted value is truncated");
  // An explicit tag length: GCM would otherwise accept a tag cut down to 4 bytes.
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  if (boundTo !== null) decipher.setAAD(aad(boundTo));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/** Opens a value sealed for `boundTo`; throws when it was sealed for another row, altered, or under another secret. */
export function decryptJson<T>(sealed: string, boundTo: string): T {
  const [version, payload] = sealed.split(".");
  if (version !== VERSION || !payload) throw new Error("Unknown encrypted value format");
  return JSON.parse(open(payload, boundTo).toString("utf8")) as T;
}

/** A value in the unbound v1 format re-sealed for its row; null when it is not v1. */
export function resealLegacy(sealed: string, boundTo: string): string | null {
  const [version, payload] = sealed.split(".");
  if (version !== LEGACY_VERSION || !payload) return null;
  return encryptJson(JSON.parse(open(payload, null).toString("utf8")), boundTo);
}
