import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptJson, encryptJson, resealLegacy } from "./crypto";
import { installationSecret } from "./secrets";

const headers = { Authorization: "Bearer s3cret" };

describe("sealed Source headers", () => {
  it("open in the Source they were sealed for, and nowhere else", () => {
    const sealed = encryptJson(headers, "source-a");
    expect(decryptJson(sealed, "source-a")).toEqual(headers);
    expect(() => decryptJson(sealed, "source-b")).toThrow();
  });

  it("refuse a shortened authentication tag (GCM would otherwise accept 4 bytes)", () => {
    const raw = Buffer.from(encryptJson(headers, "source-a").slice(3), "base64url");
    // IV, then only 4 of the tag's 16 bytes, then the ciphertext.
    const truncated = Buffer.concat([raw.subarray(0, 16), raw.subarray(28)]);
    expect(() => decryptJson(`v2.${truncated.toString("base64url")}`, "source-a")).toThrow();
  });

  it("re-seal values written before they were bound to a Source, and nothing else", () => {
    const key = Buffer.from(hkdfSync("sha256", installationSecret(), "quartermaster", "source-headers/v1", 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(headers), "utf8"), cipher.final()]);
    const legacy = `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    const resealed = resealLegacy(legacy, "source-a");
    expect(resealed).toMatch(/^v2\./);
    expect(decryptJson(resealed as string, "source-a")).toEqual(headers);
    expect(() => decryptJson(legacy, "source-a")).toThrow(/Unknown encrypted value format/);
    expect(resealLegacy(encryptJson(headers, "source-a"), "source-a")).toBeNull();
  });
});
