/**
 * Reviewing the consolidator's proposals. Accepting applies one in a single transaction
 * and keeps history (nothing is deleted: merged and superseded memories stay readable by
 * id); rejecting records who and why, and the same set is never proposed again. A proposal
 * whose memories changed since it was filed is refused as PROPOSAL_STALE. An `admit`
 * proposal (an agent's write held for review) is a curator's alone: accepting it lets every
 * reader of the scope see the memory and applies what the write asked for; rejecting it
 * discards the memory, which stays unseen by anyone but its writer and curators.
 */
import { type Actor, actorId, actorLabel } from "../../actor";
import { getDb } from "../../db";
import type { Prisma, Tx } from "../../db/types";
import { DomainError } from "../../errors";
import { recordAudit } from "../audit/record";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { memoryVisible, proposalVisible, requireScope, requireScopeOf, seesQuarantine } from "./access";
import { fingerprintOf } from "./consolidator";
import { differences } from "./contradiction";
import { refreshSeries } from "./facts";
import { addressHandoff } from "./handoffs";
import { writeMemory } from "./memories";
import { ZAcceptProposalInput, ZDecideManyInput, ZListProposalsInput, ZRejectProposalInput } from "./schemas";
import { ensureThreads, memoryState, moveMemberships } from "./threads";

const PROPOSAL = {
  id: true,
  scopeId: true,
  kind: true,
  status: true,
  memoryIds: true,
  rationale: true,
  score: true,
  evidence: true,
  filedAt: true,
  decidedAt: true,
  decidedByLabel: true,
  decisionReason: true,
  resultMemoryId: true,
} as const;

/** Proposals of a scope with the memories they touch, side by side. */
export async function listProposals(actor: Actor, raw: unknown) {
  const input = parseInput(ZListProposalsInput, raw);
  const scope = await requireScope(actor, input.scopeId, "read");
  const db = await getDb();
  const where: Prisma.ProposalWhereInput = {
    scopeId: scope.id,
    ...(input.status === "all" ? {} : { status: input.status }),
    ...(input.kind ? { kind: input.kind } : {}),
  };
  where.AND = [proposalVisible(actor)];
  const offset = decodeOffsetCursor(input.cursor);
  const [rows, total] = await Promise.all([
    db.proposal.findMany({
      where,
      orderBy:
        input.status === "pending"
          ? [{ score: "desc" }, { filedAt: "asc" }, { id: "asc" }]
          : [{ decidedAt: { sort: "desc", nulls: "last" } }, { filedAt: "desc" }, { id: "asc" }],
      skip: offset,
      take: input.limit,
      select: { ...PROPOSAL, fingerprint: true },
    }),
    db.proposal.count({ where }),
  ]);
  // Only the scope's own memories: an id naming another scope's memory shows as missing.
  const memories = await db.memory.findMany({
    where: { scopeId: scope.id, id: { in: [...new Set(rows.flatMap((r) => r.memoryIds))] }, ...memoryVisible(actor) },
    select: {
      id: true,
      kind: true,
      title: true,
      body: true,
      tags: true,
      occurredAt: true,
      authorLabel: true,
      supersededById: true,
      discardedAt: true,
      erasedAt: true,
      quarantined: true,
      facts: { select: { subject: true, predicate: true, value: true, validFrom: true, validUntil: true } },
    },
  });
  const byId = new Map(memories.map((m) => [m.id, { ...m, state: memoryState(m) }]));
  const fingerprints = await Promise.all(
    rows.map((r) => (r.status === "pending" ? fingerprintOf(db, r.memoryIds) : Promise.resolve(null))),
  );
  return {
    scope,
    items: rows.map(({ fingerprint, ...r }, i) => ({
      ...r,
      // Pending but no longer applicable: its memories moved since it was filed.
      stale: r.status === "stale" || (fingerprints[i] !== null && fingerprints[i] !== fingerprint),
      memories: r.memoryIds.map((id) => byId.get(id) ?? null),
      // Words each side has that the other lacks, for the reviewer's side-by-side view.
      differences:
        r.memoryIds.length < 2
          ? null
          : differences(byId.get(r.memoryIds[0] as string)?.body ?? "", byId.get(r.memoryIds[1] as string)?.body ?? ""),
    })),
    total,
    nextCursor: nextOffsetCursor(offset, rows.length, total),
  };
}

/**
 * The one function that loads a proposal to decide it. One the caller may not read, or one
 * outside the scope the call names, answers exactly as an id that does not exist.
 */
async function loadPending(tx: Tx, actor: Actor, id: string, use: "apply" | "reject", inScope?: string) {
  const found = await tx.proposal.findUnique({ where: { id }, select: { ...PROPOSAL, fingerprint: true } });
  const proposal = found && (inScope === undefined || found.scopeId === inScope) ? found : null;
  const notFound = () => new DomainError("NOT_FOUND", `Proposal ${id} was not found.`, { field: "id" });
  // An agent never sees an admit proposal, so it cannot decide one: not even its writer's own.
  if (!proposal || (proposal.kind === "admit" && !seesQuarantine(actor))) throw notFound();
  const scope = await requireScopeOf(actor, proposal.scopeId, "write", notFound, tx);
  if (proposal.status !== "pending")
    throw new DomainError("CONFLICT", `Proposal ${id} was already decided (${proposal.status}).`, {
      status: proposal.status,
    });
  // The id array is the one reference no key can hold to the scope: a proposal naming a
  // memory of another scope (written by a bug or past an import) never applies.
  // Rejecting one applies nothing, and takes it out of the queue.
  if (use === "reject") return { proposal, scope };
  const ids = [...new Set(proposal.memoryIds)];
  const own = await tx.memory.count({ where: { scopeId: proposal.scopeId, id: { in: ids } } });
  if (own !== ids.length)
    throw new DomainError(
      "PROPOSAL_STALE",
      `Proposal ${id} names memories that are not in scope "${scope.name}"; it can never be applied.`,
      { id },
    );
  return { proposal, scope };
}

const decidedBy = (actor: Actor) => ({
  decidedAt: new Date(),
  decidedByType: actor.kind,
  decidedById: actorId(actor),
  decidedByLabel: actorLabel(actor),
});

async function applyMerge(
  tx: Tx,
  actor: Actor,
  scopeId: string,
  memoryIds: string[],
  evidence: Record<string, unknown>,
) {
  const originals = await tx.memory.findMany({
    where: { scopeId, id: { in: memoryIds } },
    select: {
      id: true,
      kind: true,
      body: true,
      tags: true,
      occurredAt: true,
      facts: { select: { subject: true, predicate: true, value: true, validFrom: true } },
    },
  });
  const keepId = typeof evidence.keepWordingOf === "string" ? evidence.keepWordingOf : memoryIds[0];
  const keep = originals.find((m) => m.id === keepId) ?? originals[0];
  if (!keep?.body) throw new DomainError("PROPOSAL_STALE", "The memory whose wording the merge keeps is gone.");
  const facts = new Map<string, { subject: string; predicate: string; value: string; validFrom: Date }>();
  for (const f of originals.flatMap((m) => m.facts))
    facts.set(`${f.subject}\u0000${f.predicate}\u0000${f.value}\u0000${f.validFrom.toISOString()}`, f);
  const merged = await writeMemory(
    tx,
    { kind: "system", label: `Consolidator (merge accepted by ${actorLabel(actor)})` },
    scopeId,
    {
      scopeId,
      body: keep.body,
      kind: keep.kind,
      tags: [...new Set(originals.flatMap((m) => m.tags))].slice(0, 32),
      occurredAt: new Date(Math.min(...originals.map((m) => m.occurredAt.getTime()))),
      facts: [...facts.values()],
    },
    { onBehalfOf: actor },
  );
  const now = new Date();
  await tx.memory.update({ where: { id: merged.id }, data: { mergedFrom: memoryIds } });
  await tx.memory.updateMany({
    where: { scopeId, id: { in: memoryIds } },
    data: { supersededById: merged.id, supersededAt: now },
  });
  await moveMemberships(tx, memoryIds, merged.id);
  return merged.id;
}

/**
 * Admits a quarantined write: every reader of the scope sees it from now on, and what it
 * asked for when written happens now — its supersession (unless another memory superseded
 * that one meanwhile: then it stands beside it, and the audit says so), its threads, its
 * handoff to a thread, and its facts closing the series they join.
 */
async function applyAdmit(tx: Tx, actor: Actor, scopeId: string, memoryId: string, evidence: Record<string, unknown>) {
  const now = new Date();
  const { count } = await tx.memory.updateMany({
    where: { scopeId, id: memoryId, quarantined: true },
    data: { quarantined: false, admittedAt: now, admittedBy: actorLabel(actor) },
  });
  if (!count) throw new DomainError("PROPOSAL_STALE", `Memory ${memoryId} is not waiting for admission.`);
  let supersession: "applied" | "skipped" | null = null;
  if (typeof evidence.supersedes === "string") {
    const { count: applied } = await tx.memory.updateMany({
      where: { scopeId, id: evidence.supersedes, supersededById: null, erasedAt: null, quarantined: false },
      data: { supersededById: memoryId, supersededAt: now },
    });
    supersession = applied ? "applied" : "skipped";
    if (applied) await moveMemberships(tx, [evidence.supersedes], memoryId);
  }
  const names = Array.isArray(evidence.threads) ? evidence.threads.filter((t) => typeof t === "string") : [];
  const threads = await ensureThreads(tx, scopeId, names);
  if (threads.length)
    await tx.threadMember.createMany({
      data: threads.map((t) => ({ scopeId, threadId: t.id, memoryId })),
      skipDuplicates: true,
    });
  if (typeof evidence.handoffToThread === "string")
    await addressHandoff(tx, memoryId, scopeId, null, evidence.handoffToThread);
  const facts = await tx.fact.findMany({ where: { memoryId }, select: { subjectKey: true, predicateKey: true } });
  await refreshSeries(
    tx,
    scopeId,
    facts.map((f) => [f.subjectKey, f.predicateKey]),
  );
  return { memoryId, supersession };
}

async function apply(
  tx: Tx,
  actor: Actor,
  proposal: { kind: string; scopeId: string; memoryIds: string[]; evidence: Prisma.JsonValue },
): Promise<string | null> {
  const evidence = (proposal.evidence ?? {}) as Record<string, unknown>;
  const now = new Date();
  switch (proposal.kind) {
    case "merge":
      return applyMerge(tx, actor, proposal.scopeId, proposal.memoryIds, evidence);
    case "admit": {
      const admitted = await applyAdmit(tx, actor, proposal.scopeId, proposal.memoryIds[0] as string, evidence);
      await recordAudit(tx, actor, {
        action: "memory.admit",
        targetType: "memory",
        targetId: admitted.memoryId,
        details: { supersedes: evidence.supersedes ?? null, supersession: admitted.supersession },
      });
      return admitted.memoryId;
    }
    case "supersede": {
      const [old, by] = proposal.memoryIds as [string, string];
      await tx.memory.update({
        where: { scopeId_id: { scopeId: proposal.scopeId, id: old } },
        data: { supersededById: by, supersededAt: now },
      });
      await moveMemberships(tx, [old], by);
      return by;
    }
    default: {
      const [discard, keep] = proposal.memoryIds as [string, string | undefined];
      await tx.memory.update({
        where: { scopeId_id: { scopeId: proposal.scopeId, id: discard } },
        data: { discardedAt: now },
      });
      // A duplicate's thread memberships and pins go to the copy that stays.
      if (keep) await moveMemberships(tx, [discard], keep);
      return keep ?? null;
    }
  }
}

export async function acceptProposal(actor: Actor, raw: unknown) {
  const { id, scopeId } = parseInput(ZAcceptProposalInput, raw);
  const db = await getDb();
  try {
    return await db.$transaction(async (tx) => {
      const { proposal, scope } = await loadPending(tx, actor, id, "apply", scopeId);
      if ((await fingerprintOf(tx, proposal.memoryIds)) !== proposal.fingerprint)
        throw new DomainError(
          "PROPOSAL_STALE",
          `Proposal ${id} is stale: its memories changed (superseded, discarded, erased or merged) since the consolidator filed it. The next consolidator pass proposes again what still applies.`,
          { id },
        );
      const resultMemoryId = await apply(tx, actor, proposal);
      const decided = await tx.proposal.update({
        where: { id },
        data: { status: "accepted", resultMemoryId, ...decidedBy(actor) },
        select: PROPOSAL,
      });
      await recordAudit(tx, actor, {
        action: "proposal.accept",
        targetType: "proposal",
        targetId: id,
        targetLabel: `${scope.name}: ${proposal.kind}`,
        details: { kind: proposal.kind, memoryIds: proposal.memoryIds, resultMemoryId },
      });
      return decided;
    });
  } catch (error) {
    // The refusal is kept: the proposal leaves the queue marked stale.
    if (error instanceof DomainError && error.code === "PROPOSAL_STALE")
      await db.proposal.updateMany({
        where: { id, status: "pending" },
        data: { status: "stale", ...decidedBy(actor) },
      });
    throw error;
  }
}

export async function rejectProposal(actor: Actor, raw: unknown) {
  const { id, reason, scopeId } = parseInput(ZRejectProposalInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const { proposal, scope } = await loadPending(tx, actor, id, "reject", scopeId);
    // A rejected admission is discarded: kept (and still quarantined) so the writer and
    // curators can see what was refused and why, but never shown to anyone else.
    if (proposal.kind === "admit")
      await tx.memory.updateMany({
        where: { scopeId: proposal.scopeId, id: { in: proposal.memoryIds }, quarantined: true, discardedAt: null },
        data: { discardedAt: new Date() },
      });
    const decided = await tx.proposal.update({
      where: { id },
      data: { status: "rejected", decisionReason: reason, ...decidedBy(actor) },
      select: PROPOSAL,
    });
    await recordAudit(tx, actor, {
      action: "proposal.reject",
      targetType: "proposal",
      targetId: id,
      targetLabel: `${scope.name}: ${proposal.kind}`,
      details: { kind: proposal.kind, memoryIds: proposal.memoryIds, reason },
    });
    return decided;
  });
}

/** Bulk decisions: each proposal on its own, so one stale proposal does not stop the rest. */
export async function decideProposals(actor: Actor, raw: unknown) {
  const input = parseInput(ZDecideManyInput, raw);
  if (input.decision === "reject" && (!input.reason || input.reason.length < 3))
    throw new DomainError("INVALID_INPUT", "reason: say why the proposals are wrong", { field: "reason" });
  const results: { id: string; ok: boolean; code?: string; message?: string }[] = [];
  for (const id of input.ids) {
    try {
      if (input.decision === "accept") await acceptProposal(actor, { id });
      else await rejectProposal(actor, { id, reason: input.reason });
      results.push({ id, ok: true });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ id, ok: false, code: error.code, message: error.message });
    }
  }
  return { results, decided: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length };
}
