/**
 * A Connection's auth headers at rest: sealed for their own Source (server/crypto.ts), so
 * they open only in the row they were written for.
 */
import { decryptJson, encryptJson, resealLegacy } from "../../crypto";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { log } from "../../log";

export function sealHeaders(sourceId: string, headers: Record<string, string>): string | null {
  return Object.keys(headers).length ? encryptJson(headers, sourceId) : null;
}

/**
 * Opened headers by Source and sealed text (docs/decisions/0095): a call opened them anew
 * every time. An edit seals them again under a fresh nonce, so new text is a new key and a
 * changed header is never answered from here; the pooled sessions hold the same headers
 * in memory already. Bounded; past it, the oldest go (a Map iterates in insertion order).
 * When they cannot be opened (QM_SECRET changed, or they were written for another Source),
 * a refusal under `code`: a call's SOURCE_UNREACHABLE, a check's CATALOG_CHECK_FAILED.
 */
const opened = new Map<string, Readonly<Record<string, string>>>();
const MOST_OPENED = 1_000;
/** One object for "no headers", so what is keyed by the headers' object (a session pool's key) is found again. */
const NONE: Readonly<Record<string, string>> = Object.freeze({});

export function openHeaders(
  source: { id: string; encryptedHeaders: string | null },
  code: "SOURCE_UNREACHABLE" | "CATALOG_CHECK_FAILED" = "SOURCE_UNREACHABLE",
): Record<string, string> {
  if (!source.encryptedHeaders) return NONE as Record<string, string>;
  const key = `${source.id}\0${source.encryptedHeaders}`;
  const known = opened.get(key);
  if (known) return known as Record<string, string>;
  let headers: Record<string, string>;
  try {
    headers = decryptJson<Record<string, string>>(source.encryptedHeaders, source.id);
  } catch {
    throw new DomainError(
      code,
      "The Connection's saved auth headers cannot be decrypted (QM_SECRET changed, or they were not written for this Source); an operator must enter them again.",
    );
  }
  if (opened.size >= MOST_OPENED) opened.delete(opened.keys().next().value as string);
  // Shared by every caller: frozen, so none can change another's copy.
  opened.set(key, Object.freeze(headers));
  return headers;
}

/** At start: headers written before they were bound to their Source are sealed again, bound. */
export async function resealLegacyHeaders(): Promise<number> {
  const db = await getDb();
  const rows = await db.source.findMany({
    where: { encryptedHeaders: { startsWith: "v1." } },
    select: { id: true, encryptedHeaders: true },
  });
  let resealed = 0;
  for (const row of rows) {
    try {
      const sealed = row.encryptedHeaders ? resealLegacy(row.encryptedHeaders, row.id) : null;
      if (!sealed) continue;
      await db.source.updateMany({
        where: { id: row.id, encryptedHeaders: row.encryptedHeaders },
        data: { encryptedHeaders: sealed },
      });
      resealed++;
    } catch (error) {
      // Unreadable under this secret: left as it is; checks report it, an operator re-enters them.
      log.warn({ err: error, sourceId: row.id }, "saved headers could not be re-sealed");
    }
  }
  return resealed;
}
