/**
 * Tombstones win over an import. A file exported before an erasure still holds the erased
 * memory's body, facts, memberships and the proposals that quoted it; re-importing it must
 * bring none of that back. The memory row itself is kept by its id (the import skips rows
 * already here); what hangs off it is dropped here, and a memory the file would add that is
 * erased, or built by a merge from an erased one, is written as erasure leaves it.
 */
import type { Tx } from "../../db/types";

interface MemoryLine {
  id: string;
  mergedFrom: string[];
  erasedAt: Date | null;
}

/**
 * The ids whose derived lines an import must drop: the scope's tombstones, the file's own
 * erased memories, and (transitively) every memory of the file merged from one of them.
 */
export async function erasedIds(tx: Tx, scopeId: string, memories: MemoryLine[]): Promise<Set<string>> {
  const here = await tx.memory.findMany({ where: { scopeId, erasedAt: { not: null } }, select: { id: true } });
  const erased = new Set(here.map((m) => m.id));
  for (const m of memories) if (m.erasedAt) erased.add(m.id);
  // A merge holds its sources' words: erasure erases it with them, and so does an import.
  for (let grew = true; grew; ) {
    grew = false;
    for (const m of memories)
      if (!erased.has(m.id) && m.mergedFrom.some((id) => erased.has(id))) {
        erased.add(m.id);
        grew = true;
      }
  }
  return erased;
}

/**
 * A memory line as erasure leaves a row: an erased one without body, title, tags or keys
 * (when and why kept), and one superseded by an erased memory current again.
 */
export function asErasureLeavesIt<
  M extends MemoryLine & {
    body: string | null;
    title: string;
    tags: string[];
    contentHash: string | null;
    supersededById: string | null;
    supersededAt: Date | null;
    erasedBy: string | null;
    erasureReason: string | null;
  },
>(m: M, erased: Set<string>, now: Date): M {
  const line =
    m.supersededById && erased.has(m.supersededById) ? { ...m, supersededById: null, supersededAt: null } : m;
  if (!erased.has(m.id)) return line;
  const source = m.mergedFrom.find((id) => erased.has(id));
  return {
    ...line,
    body: null,
    title: "",
    tags: [],
    contentHash: null,
    erasedAt: m.erasedAt ?? now,
    erasedBy: m.erasedBy ?? "Quartermaster (import)",
    erasureReason:
      m.erasureReason ?? (source ? `Built by a merge from erased memory ${source}` : "Erased before it was imported"),
  };
}

/** Whether a fact, membership or proposal line names an erased memory (so is dropped). */
export function namesErased(ids: (string | null)[], erased: Set<string>): boolean {
  return ids.some((id) => id !== null && erased.has(id));
}
