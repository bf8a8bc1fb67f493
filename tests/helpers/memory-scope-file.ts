/**
 * A scope export (JSON Lines) of `count` memories for tests that need a long memory list:
 * loaded through `scopes.import`, the path a real bulk load takes. Memories come ten to a
 * moment (they share `occurredAt`), so the lists' order for rows sharing a time is tested
 * too; every memory is in one thread, and every hundredth carries the tag "hundredth".
 */
import { randomUUID } from "node:crypto";
import { EXPORT_FORMAT } from "@/server/domain/memory/portable";
import { contentHash, titleOf } from "@/server/domain/memory/text";

export const memoryTitle = (i: number) => `Long memory ${String(i).padStart(5, "0")}`;

export function memoryScopeFile(name: string, count: number, thread = "Everything") {
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
  for (let i = 0; i < count; i++) {
    const body = `${memoryTitle(i)}\nRecord ${i} of the long list: the rollout of service ${i % 97} went as planned.`;
    const at = new Date(start + Math.floor(i / 10) * 60_000).toISOString();
    const id = randomUUID();
    ids.push(id);
    lines.push({
      type: "memory",
      id,
      kind: "note",
      body,
      title: titleOf(body),
      bodyBytes: Buffer.byteLength(body),
      contentHash: contentHash(body),
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
  return { scopeId, threadId, ids, jsonl: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n` };
}
