/**
 * Encryption at rest for Source connection headers: AES-256-GCM with a key derived
 * (HKDF-SHA256) from the installation secret, a fresh 96-bit IV per value. The format
 * carries a version so the scheme can change without guessing.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { installationSecret } from "./secrets";

const VERSION = "v1";
let cachedKey: { secret: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = installationSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "quartermaster", "source-headers/v1", 32)) };
  }
  return cachedKey.key;
}

export function encryptJson(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function decryptJson<T>(sealed: string): T {
  const [version, payload] = sealed.split(".");
  if (version !== VERSION || !payload) throw new Error("Unknown encrypted value format");
  const raw = Buffer.from(payload, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as T;
}
