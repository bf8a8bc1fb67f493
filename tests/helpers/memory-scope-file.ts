/**
 * A scope export (JSON Lines) of `count` memories for tests that need a long memory list:
 * loaded through `scopes.import`, the path a real bulk load takes. Memories come ten to a
 * moment (they share `occurredAt`), so the lists' order for rows sharing a time is tested
 * too; every memory is in one thread, and every hundredth carries the tag "hundredth".
 * With `proposals`, the first that many memories each have a pending discard proposal,
 * the first memory's the most certain.
 */
import { createHash, randomUUID } from "node:crypto";
import { EXPORT_FORMAT } from "@/server/domain/memory/portable";
import { contentHash, titleOf } from "@/server/domain/memory/text";

export const memoryTitle = (i: number) => `Long memory ${String(i).padStart(5, "0")}`;

export const proposalRationale = (i: number) => `Discard ${memoryTitle(i)}: it repeats a routine rollout.`;

export function memoryScopeFile(name: string, count: number, options: { thread?: string; proposals?: number } = {}) {
  const thread = options.thread ?? "Everything";
  const scopeId = randomUUID();
  const threadId = randomUUID();
  const start = Date.UTC(2025, 0, 1);
  const lines: unknown[] = [
    {
      type: "scope",
      format: EXPORT_FORMAT,
      id: scopeId,
      name,
      description: "",
      consolidateEverySeconds: 86_400,
      createdAt: new Date(start).toISOString(),
    },
  ];
  const ids: string[] = [];
  const proposals: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const body = `${memoryTitle(i)}\nRecord ${i} of the long list: the rollout of service ${i % 97} went as planned.`;
    const at = new Date(start + Math.floor(i / 10) * 60_000).toISOString();
    const id = randomUUID();
    ids.push(id);
    const hash = contentHash(body);
    if (i < (options.proposals ?? 0))
      proposals.push({
        type: "proposal",
        id: randomUUID(),
        kind: "discard",
        status: "pending",
        memoryIds: [id],
        key: `discard:${id}`,
        rationale: proposalRationale(i),
        score: 0.99 - i / 1_000_000,
        evidence: { reason: "routine" },
        // As the consolidator fingerprints an untouched memory (consolidator.ts), so it is not stale.
        fingerprint: createHash("sha256").update(`${id}||||${hash}`).digest("hex"),
        filedAt: at,
        decidedAt: null,
        decidedByType: null,
        decidedById: null,
        decidedByLabel: null,
        decisionReason: null,
        resultMemoryId: null,
      });
    lines.push({
      type: "memory",
      id,
      kind: "note",
      body,
      title: titleOf(body),
      bodyBytes: Buffer.byteLength(body),
      contentHash: hash,
      tags: i % 100 === 0 ? ["hundredth"] : [],
      authorType: "system",
      authorId: null,
      authorLabel: "long lists",
      occurredAt: at,
      recordedAt: at,
      episodeId: `episode-${Math.floor(i / 20)}`,
      supersededById: null,
      supersededAt: null,
      discardedAt: null,
      mergedFrom: [],
      erasedAt: null,
      erasedBy: null,
      erasureReason: null,
    });
  }
  const now = new Date(start).toISOString();
  lines.push({
    type: "thread",
    id: threadId,
    name: thread,
    description: "",
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  for (const memoryId of ids) lines.push({ type: "thread_member", threadId, memoryId, addedAt: now, pinnedAt: null });
  lines.push(...proposals);
  return { scopeId, threadId, ids, jsonl: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n` };
}
