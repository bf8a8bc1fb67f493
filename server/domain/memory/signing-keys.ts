/**
 * The installation's Ed25519 key that signs scope exports, and the other installations'
 * public keys an admin trusts (docs/decisions/0089). The key is made once, by whichever
 * instance first needs it, and shared by every instance through the database; its private
 * half is sealed with the installation secret (crypto.ts) like Source headers, and never
 * leaves the server. Public keys travel as `ed25519:<base64url of the 32 raw bytes>`.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { z } from "zod";
import { actorLabel } from "../../actor";
import { decryptJson, encryptJson } from "../../crypto";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";

const KEY_ROW = "installation";
const SEALED_FOR = "signing-key:installation";
const PREFIX = "ed25519:";

/** The SHA-256 of the raw public key, hex: what a person compares between two consoles. */
export function fingerprintOf(publicKey: string): string {
  return createHash("sha256").update(rawPublicKey(publicKey)).digest("hex");
}

function rawPublicKey(text: string): Buffer {
  const raw = text.startsWith(PREFIX) ? Buffer.from(text.slice(PREFIX.length), "base64url") : Buffer.alloc(0);
  if (raw.length !== 32 || `${PREFIX}${raw.toString("base64url")}` !== text)
    throw new DomainError(
      "INVALID_INPUT",
      "publicKey: must be an Ed25519 public key as ed25519:<43 base64url characters>.",
      {
        field: "publicKey",
      },
    );
  return raw;
}

/** The key object of a public key in our text form (throws INVALID_INPUT on anything else). */
export function publicKeyObject(text: string): KeyObject {
  const x = rawPublicKey(text).toString("base64url");
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
}

export interface InstallationKey {
  publicKey: string;
  fingerprint: string;
  privateKey: KeyObject;
}

// Per database client: tests open several databases in one process.
const loaded = new WeakMap<object, Promise<InstallationKey>>();

/** This installation's signing key, made on first use (once, whichever instance is first). */
export async function installationKey(): Promise<InstallationKey> {
  const db = await getDb();
  let key = loaded.get(db);
  if (!key) {
    key = loadOrCreate().catch((error: unknown) => {
      loaded.delete(db);
      throw error;
    });
    loaded.set(db, key);
  }
  return key;
}

async function loadOrCreate(): Promise<InstallationKey> {
  const db = await getDb();
  let row = await db.signingKey.findUnique({ where: { id: KEY_ROW } });
  if (!row) {
    const { privateKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" });
    const publicKey = `${PREFIX}${jwk.x}`;
    // Two instances starting together: the first insert wins and both read it back.
    await db.signingKey.createMany({
      data: [
        {
          id: KEY_ROW,
          publicKey,
          privateKey: encryptJson({ d: jwk.d }, SEALED_FOR),
          fingerprint: fingerprintOf(publicKey),
        },
      ],
      skipDuplicates: true,
    });
    row = await db.signingKey.findUniqueOrThrow({ where: { id: KEY_ROW } });
  }
  let d: string;
  try {
    d = decryptJson<{ d: string }>(row.privateKey, SEALED_FOR).d;
  } catch {
    throw new Error(
      "The installation's signing key cannot be opened: QM_SECRET differs from the secret it was sealed with.",
    );
  }
  const x = row.publicKey.slice(PREFIX.length);
  return {
    publicKey: row.publicKey,
    fingerprint: row.fingerprint,
    privateKey: createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", x, d }, format: "jwk" }),
  };
}

/** Who vouches for a fingerprint here: this installation, an admin's trusted key, or nobody (null). */
export async function trustOf(fingerprint: string): Promise<{ label: string; own: boolean } | null> {
  const own = await installationKey();
  if (fingerprint === own.fingerprint) return { label: "this installation", own: true };
  const db = await getDb();
  const trusted = await db.trustedSigningKey.findUnique({ where: { fingerprint }, select: { label: true } });
  return trusted ? { label: trusted.label, own: false } : null;
}

/** The public half for the console (anyone signed in may read and copy it), and the trusted keys. */
export const listSigningKeys = operation({ role: "viewer", input: z.object({}).optional() }, async () => {
  const own = await installationKey();
  const db = await getDb();
  const trusted = await db.trustedSigningKey.findMany({ orderBy: { addedAt: "asc" } });
  return { installation: { publicKey: own.publicKey, fingerprint: own.fingerprint }, trusted };
});

export const ZTrustKeyInput = z.object({
  publicKey: z.string().trim().max(100),
  label: z.string().trim().min(1, "label must name the installation").max(200),
});

export const trustSigningKey = operation({ role: "admin", input: ZTrustKeyInput }, async (actor, input) => {
  publicKeyObject(input.publicKey);
  const fingerprint = fingerprintOf(input.publicKey);
  if (fingerprint === (await installationKey()).fingerprint)
    throw new DomainError("CONFLICT", "That is this installation's own key; its files are trusted already.", {
      field: "publicKey",
    });
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const existing = await tx.trustedSigningKey.findUnique({ where: { fingerprint }, select: { label: true } });
    if (existing)
      throw new DomainError("CONFLICT", `That key is trusted already, as "${existing.label}".`, { field: "publicKey" });
    const row = await tx.trustedSigningKey.create({
      data: { fingerprint, publicKey: input.publicKey, label: input.label, addedBy: actorLabel(actor) },
    });
    await recordAudit(tx, actor, {
      action: "signing_key.trust",
      targetType: "signing_key",
      targetId: fingerprint,
      targetLabel: input.label,
      details: { publicKey: input.publicKey },
    });
    return row;
  });
});

export const untrustSigningKey = operation(
  { role: "admin", input: z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, "fingerprint: 64 hex digits") }) },
  async (actor, { fingerprint }) => {
    const db = await getDb();
    return db.$transaction(async (tx) => {
      const row = await tx.trustedSigningKey.findUnique({ where: { fingerprint } });
      if (!row) throw new DomainError("NOT_FOUND", `No trusted key has the fingerprint ${fingerprint}.`);
      await tx.trustedSigningKey.delete({ where: { fingerprint } });
      await recordAudit(tx, actor, {
        action: "signing_key.untrust",
        targetType: "signing_key",
        targetId: fingerprint,
        targetLabel: row.label,
        details: { publicKey: row.publicKey },
      });
      return { fingerprint, removed: true };
    });
  },
);
