import { createHash } from "node:crypto";
import type { Prisma } from "../../db/types";

/** The Source columns a catalog version is made of; select these to call catalogVersionOf. */
export const VERSION_SELECT = {
  id: true,
  name: true,
  catalogVersion: true,
  hostSilentSince: true,
} as const satisfies Prisma.SourceSelect;

/**
 * A short value that changes whenever any Tool row of these Sources could read
 * differently: a publication that wrote Tools (catalogVersion), an SDK host going silent
 * or coming back (hostSilentSince), a rename (rows show the Source's name), or a Source
 * joining or leaving the set. The console polls it instead of every loaded block of a
 * Tool list, and refetches blocks only when it moves (decisions/0017).
 */
export function catalogVersionOf(
  sources: { id: string; name: string; catalogVersion: number; hostSilentSince: Date | null }[],
): string {
  const hash = createHash("sha256");
  for (const s of [...sources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    hash.update(`${s.id}\u0000${s.catalogVersion}\u0000${s.hostSilentSince?.getTime() ?? ""}\u0000${s.name}\u0001`);
  return hash.digest("base64url").slice(0, 22);
}
