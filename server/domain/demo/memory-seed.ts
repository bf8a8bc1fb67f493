/**
 * The demo's memory, so a new curator finds every memory page working: a "platform-team"
 * scope with a few hundred memories, threads (pins, one archived), grants for the demo
 * Agent Identities and a consolidator pass that leaves proposals of every kind pending
 * (plus one accepted and one rejected, so the history filters show something). A small
 * "support-desk" scope beside it shows the scope switcher and isolation. Memories arrive
 * the way a scope moves between installations (an import of JSON Lines, in a few
 * statements); grants, pins, archiving, the consolidator and decisions go through the
 * domain functions curators use, so the audit log tells how the demo came to be.
 */
import { randomUUID } from "node:crypto";
import { type Actor, actorId, actorLabel, SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { utf8Bytes } from "../catalog/canonical";
import { consolidateScope } from "../memory/consolidator";
import { refreshSeries, termKey } from "../memory/facts";
import { EXPORT_FORMAT, importScope } from "../memory/portable";
import { acceptProposal, listProposals, rejectProposal } from "../memory/proposals";
import { grantScope } from "../memory/scopes";
import { contentHash, titleOf } from "../memory/text";
import { archiveThread, pinThreadMember } from "../memory/threads";
import {
  DEMO_THREADS,
  type DemoAuthor,
  type DemoMemory,
  platformTeamMemories,
  supportDeskMemories,
} from "./memory-corpus";

export const DEMO_SCOPE = "platform-team";
export const DEMO_SUPPORT_SCOPE = "support-desk";

const DAY_MS = 86_400_000;

async function authors(writerIdentityId: string): Promise<Record<DemoAuthor, Actor>> {
  const db = await getDb();
  const [identity, token, curator, admin] = await Promise.all([
    db.agentIdentity.findUniqueOrThrow({ where: { id: writerIdentityId }, select: { id: true, name: true } }),
    db.agentToken.findFirst({ where: { identityId: writerIdentityId }, select: { id: true } }),
    db.user.findFirst({ where: { role: "curator" }, orderBy: { createdAt: "asc" } }),
    db.user.findFirst({ where: { role: "admin" }, orderBy: { createdAt: "asc" } }),
  ]);
  const person = (u: typeof curator): Actor =>
    u ? { kind: "user", id: u.id, email: u.email, name: u.name, role: u.role as "curator" } : SYSTEM;
  return {
    research: {
      kind: "agent",
      identityId: identity.id,
      tokenId: token?.id ?? "demo-seed",
      label: `Agent Identity "${identity.name}"`,
    },
    curator: person(curator),
    admin: person(admin),
  };
}

/** Memories one author writes within this gap of each other form one episode (as writeMemory groups them). */
const EPISODE_GAP_MS = 30 * 60_000;

interface Drafted {
  id: string;
  draft: DemoMemory;
  occurredAt: Date;
  recordedAt: Date;
}

/**
 * The scope as the JSON Lines an export would hold: importing it writes a few hundred
 * memories in a handful of statements, where one createMemory each took seconds on a busy
 * machine. Bodies, titles, hashes and index entries are derived by the same code writes use.
 */
function scopeJsonl(
  scope: { id: string; name: string; description: string; consolidateEverySeconds: number },
  drafts: DemoMemory[],
  by: Record<DemoAuthor, Actor>,
  dayZero: number,
): { jsonl: string; ids: Map<string, string> } {
  const memories: Drafted[] = drafts.map((draft, i) => {
    const occurredAt = new Date(dayZero - draft.daysAgo * DAY_MS + draft.minute * 60_000);
    // Agents write as things happen; a few seconds later it is recorded.
    return { id: randomUUID(), draft, occurredAt, recordedAt: new Date(occurredAt.getTime() + 2000 + i) };
  });
  const ids = new Map(memories.map((m) => [m.draft.key, m.id]));
  const supersededBy = new Map<string, Drafted>();
  for (const m of memories) if (m.draft.supersedes) supersededBy.set(m.draft.supersedes, m);

  const episodes = new Map<string, string>();
  const lastOf = new Map<DemoAuthor, { at: number; episode: string }>();
  for (const m of [...memories].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())) {
    const last = lastOf.get(m.draft.author);
    const episode = last && m.occurredAt.getTime() - last.at <= EPISODE_GAP_MS ? last.episode : randomUUID();
    episodes.set(m.id, episode);
    lastOf.set(m.draft.author, { at: m.occurredAt.getTime(), episode });
  }

  const threadIds = new Map<string, string>();
  const threadOf = (name: string) => {
    if (!threadIds.has(name)) threadIds.set(name, randomUUID());
    return threadIds.get(name) as string;
  };
  for (const t of DEMO_THREADS) threadOf(t.name);
  // A superseded memory's thread memberships belong to the memory that replaced it.
  const holder = (m: Drafted): Drafted => {
    const next = supersededBy.get(m.draft.key);
    return next ? holder(next) : m;
  };
  const members = new Map<string, { threadId: string; memoryId: string; addedAt: Date }>();
  for (const m of memories)
    for (const name of m.draft.threads ?? []) {
      const to = holder(m);
      const threadId = threadOf(name);
      members.set(`${threadId}:${to.id}`, { threadId, memoryId: to.id, addedAt: m.recordedAt });
    }

  const iso = (d: Date) => d.toISOString();
  const authorLine = (a: DemoAuthor) => {
    const actor = by[a];
    return { authorType: actor.kind, authorId: actorId(actor), authorLabel: actorLabel(actor) };
  };
  const created = new Date(dayZero - 120 * DAY_MS);
  const lines: unknown[] = [
    {
      type: "scope",
      format: EXPORT_FORMAT,
      id: scope.id,
      name: scope.name,
      description: scope.description,
      consolidateEverySeconds: scope.consolidateEverySeconds,
      createdAt: iso(created),
    },
  ];
  for (const m of memories) {
    const next = supersededBy.get(m.draft.key);
    lines.push({
      type: "memory",
      id: m.id,
      kind: m.draft.kind,
      body: m.draft.body,
      title: titleOf(m.draft.body),
      bodyBytes: utf8Bytes(m.draft.body),
      contentHash: contentHash(m.draft.body),
      tags: [...new Set(m.draft.tags.map((t) => t.toLowerCase()))],
      ...authorLine(m.draft.author),
      occurredAt: iso(m.occurredAt),
      recordedAt: iso(m.recordedAt),
      episodeId: episodes.get(m.id),
      supersededById: next?.id ?? null,
      supersededAt: next ? iso(next.recordedAt) : null,
      discardedAt: null,
      mergedFrom: [],
      erasedAt: null,
      erasedBy: null,
      erasureReason: null,
    });
  }
  for (const m of memories)
    for (const f of m.draft.facts ?? [])
      lines.push({
        type: "fact",
        id: randomUUID(),
        memoryId: m.id,
        subject: f.subject,
        predicate: f.predicate,
        value: f.value,
        subjectKey: termKey(f.subject),
        predicateKey: termKey(f.predicate),
        validFrom: iso(m.occurredAt),
        // Set from the whole series after the import, as every write does.
        validUntil: null,
        recordedAt: iso(m.recordedAt),
      });
  for (const [name, id] of threadIds) {
    const first = memories.find((m) => m.draft.threads?.includes(name));
    const at = first ? first.recordedAt : created;
    lines.push({
      type: "thread",
      id,
      name,
      description: DEMO_THREADS.find((t) => t.name === name)?.description ?? "",
      archivedAt: null,
      createdAt: iso(at),
      updatedAt: iso(at),
    });
  }
  for (const member of members.values())
    lines.push({ type: "thread_member", ...member, addedAt: iso(member.addedAt), pinnedAt: null });
  return { jsonl: lines.map((l) => JSON.stringify(l)).join("\n"), ids };
}

/** Imports the drafts as a new scope and brings its fact series up to date. */
async function writeScope(
  scope: { name: string; description: string; consolidateEverySeconds?: number },
  drafts: DemoMemory[],
  by: Record<DemoAuthor, Actor>,
  dayZero: number,
) {
  const id = randomUUID();
  const { jsonl, ids } = scopeJsonl(
    { id, consolidateEverySeconds: scope.consolidateEverySeconds ?? 3600, ...scope },
    drafts,
    by,
    dayZero,
  );
  // Written here, by this code, a moment ago: there is no other installation to vouch for.
  await importScope(SYSTEM, { jsonl, acceptUnsigned: true });
  const db = await getDb();
  const series = await db.fact.findMany({
    where: { scopeId: id },
    distinct: ["subjectKey", "predicateKey"],
    select: { subjectKey: true, predicateKey: true },
  });
  await db.$transaction((tx) =>
    refreshSeries(
      tx,
      id,
      series.map((s) => [s.subjectKey, s.predicateKey]),
    ),
  );
  return { id, ids };
}

/**
 * Seeds the demo scopes unless they exist. `writer` is the Agent Identity that writes most
 * memories (granted write); `reader` is granted read only.
 */
export async function seedMemoryDemo({ writer, reader }: { writer: string; reader: string }): Promise<void> {
  const db = await getDb();
  if (await db.scope.findUnique({ where: { name: DEMO_SCOPE }, select: { id: true } })) return;
  // The corpus places memories at minutes into a day, days ago; counting from this time
  // yesterday keeps the newest (a day ago, late in the day) in the past.
  const dayZero = Date.now() - DAY_MS;
  const by = await authors(writer);

  const platform = await writeScope(
    {
      name: DEMO_SCOPE,
      description:
        "What the platform team's agents and engineers remember: decisions, on-call facts, handoffs, incident notes and weekly briefings.",
      consolidateEverySeconds: 6 * 3600,
    },
    platformTeamMemories(),
    by,
    dayZero,
  );
  const support = await writeScope(
    {
      name: DEMO_SUPPORT_SCOPE,
      description: "Answers and policies the support agents rely on. Kept apart from the platform team's memory.",
    },
    supportDeskMemories(),
    { ...by, research: by.curator },
    dayZero,
  );
  await grantScope(SYSTEM, { scopeId: platform.id, identityId: writer, access: "write" });
  await grantScope(SYSTEM, { scopeId: platform.id, identityId: reader, access: "read" });
  await grantScope(SYSTEM, { scopeId: support.id, identityId: reader, access: "write" });

  const threads = await db.thread.findMany({ where: { scopeId: platform.id }, select: { id: true, name: true } });
  for (const t of DEMO_THREADS) {
    const thread = threads.find((x) => x.name === t.name);
    if (!thread) continue;
    for (const key of t.pin) {
      const memoryId = platform.ids.get(key);
      if (memoryId) await pinThreadMember(by.curator, { threadId: thread.id, memoryId, pinned: true });
    }
    if (t.archived) await archiveThread(by.curator, { threadId: thread.id, archived: true });
  }

  await consolidateScope(platform.id);
  await consolidateScope(support.id);
  // One decision of each outcome, so the queue's history is not empty.
  const pending = (await listProposals(SYSTEM, { scopeId: platform.id, limit: 200 })).items;
  const reason = (p: (typeof pending)[number]) => (p.evidence as { reason?: string } | null)?.reason;
  const duplicate = pending.find((p) => reason(p) === "exact_duplicate");
  if (duplicate) await acceptProposal(by.curator, { id: duplicate.id });
  const noise = pending.find((p) => reason(p) === "no_content" && p.memoryIds[0] === platform.ids.get("noise-2"));
  if (noise)
    await rejectProposal(by.curator, {
      id: noise.id,
      reason: '"done" closes the release checklist in the release channel; the release agent looks for it.',
    });
}
