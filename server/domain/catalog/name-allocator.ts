/**
 * Gives newly published Compatible Tools their model-facing names inside a publication's
 * transaction: unique across the catalog, derived from the native name, deterministic
 * for the same inputs and the same taken names; /mcp's built-in tool names are always
 * taken. A name counts as taken when any name in use folds to the same text
 * (foldModelFacingName: "-" as "_", any case), so no client that rewrites names merges two.
 * Names given before folding counted are kept as they are (names are stable). One query learns which base names are taken; only Tools whose base is contested
 * have their other candidates looked up.
 */
import type { Tx } from "../../db/types";
import { BUILT_IN_TOOL_NAMES } from "../agent-tools/built-ins";
import {
  assignModelFacingName,
  baseModelFacingName,
  foldModelFacingName as fold,
  modelFacingNameCandidates,
} from "./model-facing-name";

const BUILT_INS_FOLDED = new Set([...BUILT_IN_TOOL_NAMES].map(fold));

export interface NameRequest {
  nativeName: string;
}

export class NameAllocator {
  /** Names in the database, by their folded form. */
  private readonly takenInDb = new Map<string, Set<string>>();
  private readonly probed = new Set<string>();
  private readonly assigned = new Set<string>();
  private readonly kept: ReadonlySet<string>;

  constructor(
    private readonly tx: Tx,
    private readonly source: { id: string; name: string },
    /** Names this publication keeps (changed Tools) and names it gives up (removed ones). */
    private readonly held: { kept: ReadonlySet<string>; freed: ReadonlySet<string> } = {
      kept: new Set(),
      freed: new Set(),
    },
  ) {
    this.kept = new Set([...held.kept].map(fold));
  }

  private isTaken = (name: string) => {
    const folded = fold(name);
    if (BUILT_INS_FOLDED.has(folded) || this.assigned.has(folded) || this.kept.has(folded)) return true;
    for (const inUse of this.takenInDb.get(folded) ?? []) if (!this.held.freed.has(inUse)) return true;
    return false;
  };

  private async probe(names: string[]): Promise<void> {
    const fresh = [...new Set(names.map(fold))].filter((n) => !this.probed.has(n));
    for (const n of fresh) this.probed.add(n);
    if (!fresh.length) return;
    // Compared folded, as clients that rewrite names would see them.
    const rows = await this.tx.$queryRawUnsafe<{ n: string }[]>(
      `SELECT "modelFacingName" AS n FROM tool
       WHERE lower(replace("modelFacingName", '-', '_')) = ANY($1::text[])`,
      fresh,
    );
    for (const r of rows) {
      const folded = fold(r.n);
      const names = this.takenInDb.get(folded) ?? new Set<string>();
      names.add(r.n);
      this.takenInDb.set(folded, names);
    }
  }

  private identity(nativeName: string) {
    return { sourceId: this.source.id, sourceName: this.source.name, nativeName };
  }

  /** Names for these Tools, in order; each is taken from then on. */
  async assign(tools: NameRequest[]): Promise<string[]> {
    const bases = tools.map((t) => fold(baseModelFacingName(t.nativeName)));
    await this.probe(bases);
    const seen = new Map<string, number>();
    for (const b of bases) seen.set(b, (seen.get(b) ?? 0) + 1);
    const contested = tools.filter((_, i) => {
      const b = bases[i] as string;
      return this.isTaken(b) || (seen.get(b) ?? 0) > 1;
    });
    await this.probe(contested.flatMap((t) => modelFacingNameCandidates(this.identity(t.nativeName))));
    return tools.map((t) => {
      const name = assignModelFacingName(this.identity(t.nativeName), this.isTaken);
      this.assigned.add(fold(name));
      return name;
    });
  }
}
