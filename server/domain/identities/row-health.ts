/**
 * What the Agent Identities list shows beside each budget: how many Tools each identity
 * lost lately and which of its Sources are failing. Read for all listed identities at
 * once (three queries, whatever their number), not per row.
 */
import { getDb } from "../../db";
import { LIMITS } from "../../limits";

const LOSS_KINDS = ["removed", "became_incompatible", "withdrawn", "source_deleted"] as const;

export interface RowHealth {
  lostTools: number;
  failingSources: { id: string; name: string; state: "failing" | "host_silent" }[];
}

export async function identityRowHealth(identityIds: string[], now = new Date()): Promise<Map<string, RowHealth>> {
  const out = new Map<string, RowHealth>(identityIds.map((id) => [id, { lostTools: 0, failingSources: [] }]));
  if (identityIds.length === 0) return out;
  const db = await getDb();
  const since = new Date(now.getTime() - LIMITS.LOSSES_WINDOW_DAYS.value * 86_400_000);
  const [events, failing] = await Promise.all([
    db.assignmentEvent.findMany({
      where: { identityId: { in: identityIds } },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      select: { identityId: true, sourceId: true, kind: true, at: true, toolCount: true },
    }),
    db.sourceAssignment.findMany({
      where: {
        identityId: { in: identityIds },
        source: { OR: [{ failingSince: { not: null } }, { hostSilentSince: { not: null } }] },
      },
      select: { identityId: true, source: { select: { id: true, name: true, failingSince: true } } },
      orderBy: { source: { name: "asc" } },
    }),
  ]);
  for (const f of failing)
    out.get(f.identityId)?.failingSources.push({
      id: f.source.id,
      name: f.source.name,
      state: f.source.failingSince ? "failing" : "host_silent",
    });

  // Held intervals per identity and Source, as Lost recently derives them (losses.ts).
  const intervals: { identityId: string; sourceId: string; from: Date; to: Date | null }[] = [];
  const open = new Map<string, Date>();
  for (const e of events) {
    const key = `${e.identityId}\u0000${e.sourceId}`;
    if (e.kind === "assigned") open.set(key, e.at);
    else {
      const from = open.get(key);
      if (from) intervals.push({ identityId: e.identityId, sourceId: e.sourceId, from, to: e.at });
      open.delete(key);
      const row = out.get(e.identityId);
      if (row && e.at >= since) row.lostTools += e.toolCount;
    }
  }
  for (const [key, from] of open) {
    const [identityId, sourceId] = key.split("\u0000") as [string, string];
    intervals.push({ identityId, sourceId, from, to: null });
  }
  const recent = intervals.filter((i) => !i.to || i.to > since);
  if (recent.length === 0) return out;
  // A check's losses share one moment: grouped by Source and moment, a check removing
  // 4,096 Tools is one row here, not 4,096.
  const moments = await db.catalogChange.groupBy({
    by: ["sourceId", "at"],
    where: {
      kind: { in: [...LOSS_KINDS] },
      modelFacingName: { not: null },
      at: { gte: since },
      sourceId: { in: [...new Set(recent.map((i) => i.sourceId))] },
    },
    _count: true,
  });
  for (const i of recent) {
    const row = out.get(i.identityId);
    if (!row) continue;
    for (const m of moments)
      if (m.sourceId === i.sourceId && m.at >= i.from && (!i.to || m.at < i.to)) row.lostTools += m._count;
  }
  return out;
}
