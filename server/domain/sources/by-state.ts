/**
 * How many Sources are in each state, for the `qm_sources` gauge: a failing Source, a
 * silent SDK Tool Host, a paused one must be visible to alerting, not only in the console.
 * Every kind × state pair is present (0 when none), so an alert on `> 0` has a series.
 */
import { getDb } from "../../db";
import { type CatalogState, catalogState } from "./view";

export const SOURCE_KINDS = ["mcp_connection", "sdk_tool_host"] as const;
export const SOURCE_STATES = ["ok", "failing", "host_silent", "never_checked", "paused"] as const;
export type SourceState = CatalogState | "paused";

export async function sourcesByState(): Promise<{ kind: string; state: SourceState; count: number }[]> {
  const db = await getDb();
  const rows = await db.source.findMany({
    select: { kind: true, lastCheckAt: true, failingSince: true, hostSilentSince: true, pausedAt: true },
  });
  const counts = new Map<string, number>();
  for (const row of rows) {
    const state: SourceState = row.pausedAt ? "paused" : catalogState(row);
    const key = `${row.kind}/${state}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return SOURCE_KINDS.flatMap((kind) =>
    SOURCE_STATES.filter((state) => kind === "sdk_tool_host" || state !== "host_silent").map((state) => ({
      kind,
      state,
      count: counts.get(`${kind}/${state}`) ?? 0,
    })),
  );
}
