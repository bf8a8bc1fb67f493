/**
 * Gives newly published Compatible Tools their model-facing names inside a publication's
 * transaction: unique across the catalog, derived from the native name, deterministic
 * for the same inputs and the same taken names; /mcp's built-in tool names are always
 * taken. One query learns which base names are taken; only Tools whose base is contested
 * have their other candidates looked up.
 */
import type { Tx } from "../../db/types";
import { BUILT_IN_TOOL_NAMES } from "../agent-tools/built-ins";
import { assignModelFacingName, baseModelFacingName, modelFacingNameCandidates } from "./model-facing-name";

export interface NameRequest {
  nativeName: string;
}

export class NameAllocator {
  private readonly takenInDb = new Set<string>();
  private readonly probed = new Set<string>();
  private readonly assigned = new Set<string>();

  constructor(
    private readonly tx: Tx,
    private readonly source: { id: string; name: string },
    /** Names this publication keeps (changed Tools) and names it gives up (removed ones). */
    private readonly held: { kept: ReadonlySet<string>; freed: ReadonlySet<string> } = {
      kept: new Set(),
      freed: new Set(),
    },
  ) {}

  private isTaken = (name: string) =>
    BUILT_IN_TOOL_NAMES.has(name) ||
    this.assigned.has(name) ||
    this.held.kept.has(name) ||
    (this.takenInDb.has(name) && !this.held.freed.has(name));

  private async probe(names: string[]): Promise<void> {
    const fresh = [...new Set(names)].filter((n) => !this.probed.has(n));
    for (const n of fresh) this.probed.add(n);
    if (!fresh.length) return;
    const rows = await this.tx.$queryRawUnsafe<{ n: string }[]>(
      `SELECT "modelFacingName" AS n FROM tool WHERE "modelFacingName" = ANY($1::text[])`,
      fresh,
    );
    for (const r of rows) this.takenInDb.add(r.n);
  }

  private identity(nativeName: string) {
    return { sourceId: this.source.id, sourceName: this.source.name, nativeName };
  }

  /** Names for these Tools, in order; each is taken from then on. */
  async assign(tools: NameRequest[]): Promise<string[]> {
    const bases = tools.map((t) => baseModelFacingName(t.nativeName));
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
      this.assigned.add(name);
      return name;
    });
  }
}
