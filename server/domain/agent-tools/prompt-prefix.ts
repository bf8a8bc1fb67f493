/**
 * The prefix a Source's prompts are namespaced with at /mcp (`<prefix>_<prompt>`). It is
 * made from the Source's name the first time its prompts are listed or got, and then kept:
 * a rename must not change the names an agent already uses (as a Tool's model-facing name
 * holds), and two Sources whose names make the same slug ("Docs Server", "docs-server")
 * get distinct prefixes (`docs_server`, `docs_server2`) rather than one prompt name for two.
 * Prefixes never nest either: beside `docs`, a Source named "Docs Server" gets `docsserver`,
 * not `docs_server`, or its `status` and docs' `server_status` would both be
 * `docs_server_status`. (Prefixes given before this rule may nest; prompts/get resolves those
 * by the check's record: source-surface.ts.)
 */
import { getDb } from "../../db";

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 24) || "source";

/** Whether two prefixes could make one name: equal, or one is the other's start before a `_`. */
const clashes = (a: string, b: string) => a === b || a.startsWith(`${b}_`) || b.startsWith(`${a}_`);

/** The first of base, base without `_`, then numbered forms of both, that clashes with no prefix taken. */
export function freePrefix(base: string, taken: string[]): string {
  const compact = base.replace(/_/g, "") || "source";
  const free = (candidate: string) => !taken.some((prefix) => clashes(candidate, prefix));
  for (const candidate of [base, compact]) if (free(candidate)) return candidate;
  for (let n = 2; ; n++) {
    for (const candidate of [`${base}${n}`, `${compact}${n}`]) if (free(candidate)) return candidate;
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === "P2002";

/** Each Source's prompt prefix, allocating the missing ones (deterministic for the same names and prefixes taken). */
export async function promptPrefixes<S extends { id: string; name: string; promptPrefix: string | null }>(
  sources: S[],
): Promise<(S & { promptPrefix: string })[]> {
  const missing = sources.filter((s) => !s.promptPrefix);
  if (!missing.length) return sources as (S & { promptPrefix: string })[];
  const db = await getDb();
  const given = new Map<string, string>();
  for (const source of missing) {
    // Another instance may give this Source (or another) a prefix at the same moment:
    // the unique index decides, and the loser reads what was given.
    for (let attempt = 0; attempt < 5 && !given.has(source.id); attempt++) {
      const base = slug(source.name);
      const taken = (
        await db.source.findMany({ where: { promptPrefix: { not: null } }, select: { promptPrefix: true } })
      ).map((r) => r.promptPrefix as string);
      const candidate = freePrefix(base, taken);
      try {
        const set = await db.source.updateMany({
          where: { id: source.id, promptPrefix: null },
          data: { promptPrefix: candidate },
        });
        if (set.count) given.set(source.id, candidate);
        else {
          const row = await db.source.findUnique({ where: { id: source.id }, select: { promptPrefix: true } });
          if (row?.promptPrefix) given.set(source.id, row.promptPrefix);
        }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
  return sources.map((s) => ({ ...s, promptPrefix: s.promptPrefix ?? given.get(s.id) ?? slug(s.name) }));
}
