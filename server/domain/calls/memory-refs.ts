/**
 * Which memories a captured call carried, kept beside its payloads (call_log.memoryIds), so
 * that erasing a memory finds every payload that may quote it: remember's own arguments, a
 * search hit, get_memories' bodies, a briefing. The candidates are every short string of the
 * arguments and result, and every qm://memory/{id} or UUID inside longer text; the recorder
 * keeps those that are memory ids.
 */
import { LIMITS } from "../../limits";
import { storableCopy } from "../storable-text";

/** What a captured payload says once the memory it carried is erased. */
export const ERASED_PAYLOAD = "[Erased: this call carried a memory that has since been erased.]";
/** What it says when it names too many ids to record (so it could not be erased later). */
export const UNRECORDED_PAYLOAD = `[Not captured: this call names more than ${LIMITS.CALL_PAYLOAD_ID_CANDIDATES.value} ids.]`;

const IN_TEXT = /qm:\/\/memory\/([^\s"'<>()[\]]+)|\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi;
// Longer than any id a memory is given or imported with: text to look inside, not an id.
const ID_CHARS = 1000;

/** The strings of `values` that could be memory ids, or null when there are too many to record. */
export function memoryIdCandidates(values: unknown[]): Set<string> | null {
  const max = LIMITS.CALL_PAYLOAD_ID_CANDIDATES.value;
  const found = new Set<string>();
  const stack: unknown[] = [...values];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      // Text no database stores is no memory's id (and could not be looked up as one).
      if (v.length <= ID_CHARS && storableCopy(v) === v) found.add(v);
      for (const m of v.matchAll(IN_TEXT)) found.add((m[1] ?? m[2]) as string);
      if (found.size > max) return null;
    } else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (v && typeof v === "object") for (const item of Object.values(v)) stack.push(item);
  }
  return found;
}
