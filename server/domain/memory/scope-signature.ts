/**
 * Signed scope files (docs/decisions/0089). An export ends with one signature line: the
 * SHA-256 of every line before it, in order, signed with the installation's Ed25519 key.
 * Signing per-line digests, not only the whole file, lets an import that finds a mismatch
 * say which lines differ: changed, moved, cut or added. The signature proves the lines are
 * the ones an installation holding that key exported; it says nothing about whether what
 * they say is true (docs/security.md).
 */
import { createHash, sign, verify } from "node:crypto";
import { z } from "zod";
import { fmt } from "@/universal/format";
import { DomainError } from "../../errors";
import { fingerprintOf, installationKey, publicKeyObject, trustOf } from "./signing-keys";

export const SIGNATURE_FORMAT = "quartermaster.scope-signature/v1";

export function lineDigest(line: string): string {
  return createHash("sha256").update(line, "utf8").digest("base64url");
}

function signedMessage(fingerprint: string, digests: string[]): Buffer {
  return Buffer.from(`${SIGNATURE_FORMAT}\n${fingerprint}\n${digests.length}\n${digests.join("\n")}`, "utf8");
}

/** The lines, then the signature line over them: what an export streams. */
export async function* signedLines(lines: AsyncIterable<string>): AsyncGenerator<string> {
  const key = await installationKey();
  const digests: string[] = [];
  for await (const line of lines) {
    digests.push(lineDigest(line));
    yield line;
  }
  yield JSON.stringify({
    type: "signature",
    format: SIGNATURE_FORMAT,
    algorithm: "Ed25519",
    publicKey: key.publicKey,
    fingerprint: key.fingerprint,
    lines: digests.length,
    digests,
    signature: sign(null, signedMessage(key.fingerprint, digests), key.privateKey).toString("base64url"),
  });
}

const ZSignatureLine = z.object({
  type: z.literal("signature"),
  format: z.literal(SIGNATURE_FORMAT),
  algorithm: z.literal("Ed25519"),
  publicKey: z.string().max(100),
  fingerprint: z.string().max(100),
  lines: z.number().int().min(0),
  digests: z.array(z.string().max(100)),
  signature: z.string().max(200),
});

export type Verified = { signed: true; fingerprint: string; signer: string; ownKey: boolean } | { signed: false };

/** At most this many lines are named in a refusal's message; details.lines holds up to 100. */
const NAMED = 10;

function mismatch(text: string, details: Record<string, unknown>): DomainError {
  return new DomainError("SCOPE_FILE_MODIFIED", `jsonl: ${text} Nothing was imported.`, { field: "jsonl", ...details });
}

function isSignatureLine(line: string): boolean {
  if (!line.includes('"signature"')) return false;
  try {
    return (JSON.parse(line) as { type?: unknown })?.type === "signature";
  } catch {
    return false;
  }
}

/**
 * Checks a scope file's signature and answers its lines without it. Refused: an unsigned
 * file unless `acceptUnsigned`, a file signed by a key this installation does not trust,
 * and a signed file any of whose lines differ from what was signed (named, by line).
 */
export async function verifyScopeFile(
  jsonl: string,
  options: { acceptUnsigned: boolean },
): Promise<{ lines: string[]; verified: Verified }> {
  const lines = jsonl.split("\n");
  // The newline that ends the last line, and blank lines after it, are no lines.
  while (lines.length && !lines.at(-1)?.trim()) lines.pop();
  const last = lines.at(-1);
  const signatureAt = lines.findIndex((l, i) => i < lines.length - 1 && isSignatureLine(l));
  if (signatureAt !== -1)
    throw mismatch(
      `line ${signatureAt + 1} is a signature, which only the last line may be: the file was reordered or joined to another.`,
      {
        line: signatureAt + 1,
        lines: [signatureAt + 1],
      },
    );
  if (last === undefined || !isSignatureLine(last)) {
    if (options.acceptUnsigned) return { lines, verified: { signed: false } };
    throw new DomainError(
      "SCOPE_FILE_UNSIGNED",
      "jsonl: the file is not signed (its last line is no signature), so nothing says where it came from or that it is whole. Import it only if you trust it, accepting an unsigned file. Nothing was imported.",
      { field: "jsonl" },
    );
  }
  const body = lines.slice(0, -1);
  const at = lines.length;
  const parsed = ZSignatureLine.safeParse(JSON.parse(last));
  if (!parsed.success)
    throw mismatch(
      `line ${at} (the signature) is not one this installation can read (${parsed.error.issues[0]?.message}).`,
      {
        line: at,
        lines: [at],
      },
    );
  const sig = parsed.data;
  let fingerprint: string;
  try {
    fingerprint = fingerprintOf(sig.publicKey);
  } catch {
    throw mismatch(`line ${at} (the signature) names no valid Ed25519 public key.`, { line: at, lines: [at] });
  }
  const trust = await trustOf(fingerprint);
  if (!trust)
    throw new DomainError(
      "SCOPE_FILE_UNTRUSTED",
      `jsonl: the file is signed by a key this installation does not trust (fingerprint ${fingerprint}). If you trust the installation it came from, an admin can add its public key (${sig.publicKey}) under Memory → Scopes → Signing keys, after comparing the fingerprint with that installation's console. Nothing was imported.`,
      { field: "jsonl", fingerprint, publicKey: sig.publicKey },
    );
  const valid =
    sig.fingerprint === fingerprint &&
    sig.lines === sig.digests.length &&
    verify(
      null,
      signedMessage(fingerprint, sig.digests),
      publicKeyObject(sig.publicKey),
      Buffer.from(sig.signature, "base64url"),
    );
  if (!valid)
    throw mismatch(`line ${at} (the signature) was changed: it no longer verifies under its key.`, {
      line: at,
      lines: [at],
    });
  const differ = describeDifferences(body, sig.digests);
  if (differ.lines.length) {
    const named = differ.notes.slice(0, NAMED).join("; ");
    const more = differ.notes.length > NAMED ? `; and ${fmt(differ.notes.length - NAMED)} more` : "";
    throw mismatch(`the file does not match its signature: ${named}${more}.`, {
      line: differ.lines[0],
      lines: differ.lines.slice(0, 100),
      differing: differ.lines.length,
    });
  }
  return { lines: body, verified: { signed: true, fingerprint, signer: trust.label, ownKey: trust.own } };
}

/** Which lines differ from the signed ones, in words: changed, moved, added, or missing at the end. */
function describeDifferences(lines: string[], digests: string[]): { lines: number[]; notes: string[] } {
  const signedAt = new Map<string, number>();
  digests.forEach((d, i) => {
    if (!signedAt.has(d)) signedAt.set(d, i);
  });
  const differing: number[] = [];
  const notes: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const digest = lineDigest(lines[i] ?? "");
    if (digest === digests[i]) continue;
    differing.push(i + 1);
    const was = signedAt.get(digest);
    if (was !== undefined) notes.push(`line ${i + 1} was signed as line ${was + 1} (moved)`);
    else if (i >= digests.length) notes.push(`line ${i + 1} was added`);
    else notes.push(`line ${i + 1} was changed`);
  }
  if (lines.length < digests.length) {
    const missing = digests.length - lines.length;
    differing.push(lines.length + 1);
    notes.push(
      `the file ends after line ${lines.length}: ${fmt(missing)} signed line${missing === 1 ? " is" : "s are"} missing (cut or removed)`,
    );
  }
  return { lines: differing, notes };
}
