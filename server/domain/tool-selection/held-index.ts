/**
 * The index of the Tools an identity holds, for its confusable pairs: assembled from the
 * per-Source segments find_tools keeps (segments.ts), so a publication re-reads and
 * re-analyses that Source's Tools only, and an (un)assignment none at all. Only the tf-idf
 * vectors and the pairs, which depend on every held Tool, are computed for the whole
 * identity again (docs/decisions/0065-warm-segments-and-incremental-pairs.md).
 */
import { getDb } from "../../db";
import { catalogVersionOf, VERSION_SELECT } from "../catalog/version";
import { cached, type IndexedTool, type VersionedIndex } from "./indexes";
import { currentSegment } from "./segments";

/** By name, then id: one order on every instance, whatever order the Sources come in. */
const byNameThenId = (a: IndexedTool, b: IndexedTool) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export async function heldToolIndex(identityId: string): Promise<VersionedIndex> {
  const db = await getDb();
  const assignments = await db.sourceAssignment.findMany({
    where: { identityId },
    select: { source: { select: VERSION_SELECT } },
  });
  const sources = assignments.map((a) => a.source);
  return cached(`identity:${identityId}`, catalogVersionOf(sources), async () => {
    // A silent host's Tools are not held (heldToolsWhere); its Source adds nothing.
    const segments = await Promise.all(sources.filter((s) => !s.hostSilentSince).map(currentSegment));
    const pairs = segments.flatMap((s) => s.tools.map((tool, i) => ({ tool, bag: s.bags[i] as Map<string, number> })));
    pairs.sort((x, y) => byNameThenId(x.tool, y.tool));
    return { tools: pairs.map((p) => p.tool), bags: pairs.map((p) => p.bag) };
  });
}
