/**
 * Handoffs: a memory of kind "handoff" addressed to an Agent Identity or to a thread. The
 * addressee's next briefing in the scope returns it, once: a delivery row per identity
 * records that it was handed over (an identity addressee gets it once; a thread's handoff
 * reaches each identity that briefs on that thread, once each).
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { parseInput } from "../validation";
import { memoryVisible, requireScope } from "./access";
import { checkBodySize, writeMemory } from "./memories";
import { ZHandoffInput } from "./schemas";
import { truncate } from "./text";
import { ensureThreads } from "./threads";

export async function createHandoff(actor: Actor, raw: unknown) {
  const input = parseInput(ZHandoffInput, raw);
  checkBodySize(input.body);
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  let toIdentityId: string | null = null;
  if (input.toIdentity) {
    const identity = await db.agentIdentity.findUnique({
      where: { name: input.toIdentity },
      select: { id: true, scopeGrants: { where: { scopeId: scope.id }, select: { access: true } } },
    });
    // Told apart from "no grant" only for identities that could read it anyway.
    if (!identity?.scopeGrants.length)
      throw new DomainError(
        "INVALID_INPUT",
        `toIdentity: no Agent Identity named "${input.toIdentity}" holds a grant for scope "${scope.name}", so it could never read this handoff. Address a thread instead, or ask an operator for the grant.`,
        { field: "toIdentity" },
      );
    toIdentityId = identity.id;
  }
  return db.$transaction(async (tx) => {
    const threads = input.toThread ? [input.toThread, ...input.threads] : input.threads;
    const memory = await writeMemory(
      tx,
      actor,
      scope.id,
      { scopeId: scope.id, body: input.body, kind: "handoff", tags: input.tags, threads },
      input.toThread ? { handoffToThread: input.toThread } : {},
    );
    // A quarantined handoff to a thread is addressed when admitted: until then no thread
    // (not even its name) appears for it. One to an identity waits undelivered (takeHandoffs).
    if (!(memory.quarantined && input.toThread))
      await addressHandoff(tx, memory.id, scope.id, toIdentityId, input.toThread);
    return {
      id: memory.id,
      quarantined: memory.quarantined,
      scope: scope.name,
      to: input.toIdentity ? { identity: input.toIdentity } : { thread: input.toThread as string },
      occurredAt: memory.occurredAt,
    };
  });
}

/** The handoff row that makes a handoff memory deliverable to an identity or a thread. */
export async function addressHandoff(
  tx: Tx,
  memoryId: string,
  scopeId: string,
  toIdentityId: string | null,
  toThread: string | undefined,
): Promise<void> {
  const [thread] = toThread ? await ensureThreads(tx, scopeId, [toThread]) : [];
  await tx.handoff.create({ data: { memoryId, scopeId, toIdentityId, toThreadId: thread?.id ?? null } });
}

export interface DeliveredHandoff {
  id: string;
  body: string;
  truncated: boolean;
  from: string;
  occurredAt: Date;
  to: { identity?: string; thread?: string };
}

/**
 * Handoffs waiting for this identity in the scope (addressed to it, or to `threadId`),
 * oldest first, marked delivered in the caller's transaction. At most BRIEFING_ITEMS; the
 * rest wait for the next briefing, and `waiting` says how many.
 */
export async function takeHandoffs(
  tx: Tx,
  actor: Actor & { kind: "agent" },
  scopeId: string,
  threadId: string | null,
): Promise<{ handoffs: DeliveredHandoff[]; waiting: number }> {
  const identityId = actor.identityId;
  const where = {
    scopeId,
    OR: [{ toIdentityId: identityId }, ...(threadId ? [{ toThreadId: threadId }] : [])],
    deliveries: { none: { identityId } },
    // Held back, not dropped: a flagged handoff is delivered once a curator clears it.
    // So is a quarantined one, until a curator admits it (access.ts).
    memory: { erasedAt: null, flagged: false, ...memoryVisible(actor) },
  };
  const [rows, total] = await Promise.all([
    tx.handoff.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: LIMITS.BRIEFING_ITEMS.value,
      select: {
        id: true,
        toIdentityId: true,
        toThreadId: true,
        memory: { select: { id: true, body: true, authorLabel: true, occurredAt: true } },
      },
    }),
    tx.handoff.count({ where }),
  ]);
  if (rows.length)
    await tx.handoffDelivery.createMany({
      data: rows.map((r) => ({ handoffId: r.id, identityId })),
      skipDuplicates: true,
    });
  const threadNames = new Map(
    (
      await tx.thread.findMany({
        where: { id: { in: rows.flatMap((r) => (r.toThreadId ? [r.toThreadId] : [])) } },
        select: { id: true, name: true },
      })
    ).map((t) => [t.id, t.name]),
  );
  return {
    handoffs: rows.map((r) => {
      const { text, truncated } = truncate(r.memory.body ?? "", LIMITS.BRIEFING_BODY_CHARS.value);
      return {
        id: r.memory.id,
        body: text,
        truncated,
        from: r.memory.authorLabel,
        occurredAt: r.memory.occurredAt,
        to: r.toThreadId ? { thread: threadNames.get(r.toThreadId) ?? "" } : { identity: "you" },
      };
    }),
    waiting: total - rows.length,
  };
}
