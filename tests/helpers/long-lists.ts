/**
 * A database at the product's own list limits, for the long-list browser tests and the
 * frame-time bench: one Agent Identity holding 20,000 Tools from five SDK Tool Hosts,
 * with 20,000 losses in its last 30 days, an audit log of 20,000 events, and a memory
 * scope of 20,000 memories all in one thread, with 5,000 proposals to review. Seeded through the domain (registrations and
 * assignments as an operator makes them, memories through a scope import), bulk SQL only
 * for the audit events, which nothing else would write that many of.
 */
import { randomUUID } from "node:crypto";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { bulkInsert } from "@/server/db/bulk";
import { assignSource, createIdentity } from "@/server/domain/identities/identities";
import { importScope } from "@/server/domain/memory/portable";
import { createToolHost } from "@/server/domain/sources/sources";
import { authenticateToolHost, registerTools } from "@/server/domain/sources/tool-hosts";
import { ensureAdmin } from "@/server/domain/users/users";
import { memoryScopeFile } from "./memory-scope-file";

export const LONG_LISTS = {
  hosts: 5,
  toolsPerHost: 4000,
  identity: "Long lists",
  admin: { email: "lists-admin@example.test", password: "long-lists-password-1" },
  auditEvents: 20_000,
  memories: 20_000,
  /** Pending discard proposals over the first memories: the review queue at length. */
  proposals: 5_000,
  memoryScope: "long-lists",
} as const;

const pad = (i: number) => String(i).padStart(4, "0");
/** The Tools a host held first (all lost by the second registration) and holds now. */
export const lostName = (host: number, i: number) => `gone_h${host}_${pad(i)}`;
export const heldName = (host: number, i: number) => `tool_h${host}_${pad(i)}`;

function tools(name: (i: number) => string) {
  return Array.from({ length: LONG_LISTS.toolsPerHost }, (_, i) => ({
    name: name(i),
    description: `Looks up record ${i} and returns its fields.`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  }));
}

export interface SeededLongLists {
  identityId: string;
  sourceIds: string[];
  /** The registration that removed the first host's first catalog: 4,000 removed, 4,000 added. */
  checkId: string;
  /** A scope of 20,000 memories (memoryScopeFile: ten to a moment), all members of one thread. */
  memoryScopeId: string;
  memoryThreadId: string;
}

export async function seedLongLists(): Promise<SeededLongLists> {
  await ensureAdmin({ ...LONG_LISTS.admin, name: "Lists Admin" });
  const identity = await createIdentity(SYSTEM, { name: LONG_LISTS.identity });
  const hosts = [];
  for (let h = 0; h < LONG_LISTS.hosts; h++) {
    // `trust`: this data set is about length; under `review` the second catalog would wait in the queue.
    const { source, hostToken } = await createToolHost(SYSTEM, { name: `Long host ${h}`, reviewPolicy: "trust" });
    const host = await authenticateToolHost(hostToken);
    if (!host) throw new Error("host token did not authenticate");
    // Assigned while empty: the budget check sees nothing to add yet.
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
    hosts.push({ host, id: source.id });
  }
  let checkId = "";
  for (const [h, { host }] of hosts.entries()) {
    await registerTools(host, { tools: tools((i) => lostName(h, i)) });
    await registerTools(host, { tools: tools((i) => heldName(h, i)) });
    if (h === 0) {
      const db = await getDb();
      const check = await db.catalogCheck.findFirstOrThrow({
        where: { sourceId: host.id, removed: { gt: 0 } },
        select: { id: true },
      });
      checkId = check.id;
    }
  }

  const db = await getDb();
  const now = Date.now();
  const events = Array.from({ length: LONG_LISTS.auditEvents }, (_, i) => ({
    id: randomUUID(),
    at: new Date(now - (LONG_LISTS.auditEvents - i) * 60_000).toISOString(),
    actorType: "system",
    actorLabel: "Quartermaster",
    action: "source.check",
    targetType: "source",
    targetLabel: `Long host ${i % LONG_LISTS.hosts}`,
  }));
  await db.$transaction((tx) =>
    bulkInsert(
      tx,
      "audit_event",
      [
        { name: "id", type: "text" },
        { name: "at", type: "timestamp(3)" },
        { name: "actorType", type: "text" },
        { name: "actorLabel", type: "text" },
        { name: "action", type: "text" },
        { name: "targetType", type: "text" },
        { name: "targetLabel", type: "text" },
      ],
      events,
    ),
  );
  const memories = memoryScopeFile(LONG_LISTS.memoryScope, LONG_LISTS.memories, { proposals: LONG_LISTS.proposals });
  await importScope(SYSTEM, { jsonl: memories.jsonl, acceptUnsigned: true });
  return {
    identityId: identity.id,
    sourceIds: hosts.map((h) => h.id),
    checkId,
    memoryScopeId: memories.scopeId,
    memoryThreadId: memories.threadId,
  };
}
