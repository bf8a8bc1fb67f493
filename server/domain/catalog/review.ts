/**
 * Tools → Review: the queue of Tool definitions waiting for an operator, each one's diff
 * against what was approved, and the decisions (approve, reject, per Tool or for a whole
 * Source; put a Source back under review; switch its policy). A decision names the digest
 * the reviewer saw: a definition that changed since is refused as REVIEW_STALE, so nobody
 * approves text they never read. Every decision takes effect in one transaction for every
 * identity at once and is in the audit log with its digests (docs/decisions/0073).
 */
import { randomUUID } from "node:crypto";
import {
  diffLines,
  diffWords,
  flagInstructions,
  prettyJson,
  type ReviewFlag,
  stringsOf,
} from "@/universal/review-diff";
import { type Actor, actorId, actorLabel } from "../../actor";
import { getDb } from "../../db";
import { type BulkColumn, bulkUpdate } from "../../db/bulk";
import type { Tx } from "../../db/types";
import { DomainError, notFound } from "../../errors";
import { announce } from "../../events";
import { operation } from "../operation";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { evaluateCompatibility, REVIEW_STATES } from "./compatibility";
import { refreshSourceTotals } from "./publish";
import { changedFields, reviewDigest, reviewedPart } from "./review-digest";
import { awaitingReason, REJECTED_REASON } from "./review-publish";
import {
  ZReviewDecisionInput,
  ZReviewQueueInput,
  ZReviewSourceInput,
  ZReviewToolInput,
  ZSetReviewPolicyInput,
} from "./review-schemas";

const TX_OPTIONS = { timeout: 120_000, maxWait: 30_000 } as const;

const APPROVE_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "compatibility", type: "text", cast: "ToolCompatibility" },
  { name: "compatibilityReason", type: "text" },
  { name: "reviewDigest", type: "text" },
  { name: "approvedDigest", type: "text" },
  { name: "approvedHash", type: "text" },
  { name: "rejectedDigest", type: "text" },
  { name: "reviewSince", type: "timestamp(3)" },
  { name: "reviewChanged", type: "text[]" },
];

export const listReviewQueue = operation({ role: "viewer", input: ZReviewQueueInput }, async (_actor, input) => {
  const offset = decodeOffsetCursor(input.cursor);
  const db = await getDb();
  const where = {
    compatibility: { in: input.state ? [input.state] : [...REVIEW_STATES] },
    ...(input.sourceId ? { sourceId: input.sourceId } : {}),
    ...(input.identityId ? { source: { assignments: { some: { identityId: input.identityId } } } } : {}),
  };
  const [rows, total, bySource] = await Promise.all([
    db.tool.findMany({
      where,
      orderBy: [{ reviewSince: "asc" }, { nativeName: "asc" }, { id: "asc" }],
      skip: offset,
      take: input.limit,
      select: {
        id: true,
        nativeName: true,
        modelFacingName: true,
        compatibility: true,
        reviewSince: true,
        reviewChanged: true,
        reviewDigest: true,
        approvedDigest: true,
        approvedHash: true,
        compatibilityReason: true,
        sourceId: true,
        source: { select: { name: true, _count: { select: { assignments: true } } } },
      },
    }),
    db.tool.count({ where }),
    db.tool.groupBy({ by: ["sourceId"], where: { compatibility: { in: [...REVIEW_STATES] } }, _count: true }),
  ]);
  const names = await db.source.findMany({
    where: { id: { in: bySource.map((s) => s.sourceId) } },
    select: { id: true, name: true, catalogVersion: true, reviewPolicy: true },
  });
  const byId = new Map(names.map((n) => [n.id, n]));
  return {
    items: rows.map((t) => ({
      id: t.id,
      nativeName: t.nativeName,
      modelFacingName: t.modelFacingName,
      state: t.compatibility as (typeof REVIEW_STATES)[number],
      reason: t.compatibilityReason,
      since: t.reviewSince,
      changed: t.reviewChanged,
      isNew: !t.approvedHash,
      digest: t.reviewDigest as string,
      sourceId: t.sourceId,
      sourceName: t.source.name,
      holders: t.source._count.assignments,
    })),
    total,
    nextCursor: nextOffsetCursor(offset, rows.length, total),
    sources: bySource
      .map((s) => ({
        id: s.sourceId,
        name: byId.get(s.sourceId)?.name ?? "",
        catalogVersion: byId.get(s.sourceId)?.catalogVersion ?? 0,
        pending: s._count,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
});

/** One Tool's review: what was approved, what is published now, the diff and the flags. */
export const getToolReview = operation({ role: "viewer", input: ZReviewToolInput }, async (_actor, input) => {
  const db = await getDb();
  const tool = await db.tool.findUnique({
    where: { id: input.id },
    select: {
      id: true,
      nativeName: true,
      modelFacingName: true,
      compatibility: true,
      compatibilityReason: true,
      definitionHash: true,
      reviewDigest: true,
      approvedDigest: true,
      approvedHash: true,
      rejectedDigest: true,
      reviewSince: true,
      reviewChanged: true,
      sourceId: true,
      source: { select: { name: true, reviewPolicy: true } },
    },
  });
  if (!tool) throw notFound("Tool");
  const hashes = [tool.definitionHash, ...(tool.approvedHash ? [tool.approvedHash] : [])];
  const texts = new Map(
    (
      await db.toolDefinition.findMany({ where: { hash: { in: hashes } }, select: { hash: true, definition: true } })
    ).map((d) => [d.hash, d.definition]),
  );
  const nowText = texts.get(tool.definitionHash) ?? "{}";
  const approvedText = tool.approvedHash ? (texts.get(tool.approvedHash) ?? null) : null;
  const now = reviewedPart(nowText);
  const was = approvedText ? reviewedPart(approvedText) : {};
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const flags: ReviewFlag[] = [
    ...flagInstructions(str(was.description), str(now.description), "description"),
    ...flagInstructions(str(was.title), str(now.title), "title"),
    ...flagInstructions(stringsOf(was.inputSchema).join("\n"), stringsOf(now.inputSchema).join("\n"), "inputSchema"),
    ...flagInstructions(stringsOf(was.outputSchema).join("\n"), stringsOf(now.outputSchema).join("\n"), "outputSchema"),
    ...flagInstructions(stringsOf(was.annotations).join("\n"), stringsOf(now.annotations).join("\n"), "annotations"),
  ];
  const holders = await db.agentIdentity.findMany({
    where: { assignments: { some: { sourceId: tool.sourceId } } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
    take: 50,
  });
  const holderCount = await db.sourceAssignment.count({ where: { sourceId: tool.sourceId } });
  return {
    id: tool.id,
    nativeName: tool.nativeName,
    modelFacingName: tool.modelFacingName,
    state: tool.compatibility,
    reason: tool.compatibilityReason,
    sourceId: tool.sourceId,
    sourceName: tool.source.name,
    policy: tool.source.reviewPolicy,
    since: tool.reviewSince,
    digest: tool.reviewDigest ?? reviewDigest(nowText),
    approvedDigest: tool.approvedDigest,
    rejectedDigest: tool.rejectedDigest,
    isNew: approvedText === null,
    changed: approvedText ? changedFields(approvedText, nowText) : [],
    approved: approvedText ? was : null,
    published: now,
    diff: {
      title: diffWords(str(was.title), str(now.title)),
      description: diffWords(str(was.description), str(now.description)),
      inputSchema: diffLines(prettyJson(was.inputSchema), prettyJson(now.inputSchema)),
      outputSchema: diffLines(prettyJson(was.outputSchema), prettyJson(now.outputSchema)),
      annotations: diffLines(prettyJson(was.annotations), prettyJson(now.annotations)),
    },
    flags,
    holders: { total: holderCount, items: holders },
  };
});

type Pending = {
  id: string;
  nativeName: string;
  modelFacingName: string | null;
  compatibility: string;
  definitionHash: string;
  reviewDigest: string | null;
  approvedDigest: string | null;
  sourceId: string;
  sourceName: string;
};

async function lockSources(tx: Tx, ids: string[]) {
  return tx.$queryRaw<{ id: string; name: string }[]>`
    SELECT id, name FROM source WHERE id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`;
}

async function pendingTools(tx: Tx, where: { ids?: string[]; sourceId?: string }): Promise<Pending[]> {
  const rows = await tx.tool.findMany({
    where: {
      ...(where.ids ? { id: { in: where.ids } } : {}),
      ...(where.sourceId ? { sourceId: where.sourceId } : {}),
      compatibility: { in: [...REVIEW_STATES] },
    },
    select: {
      id: true,
      nativeName: true,
      modelFacingName: true,
      compatibility: true,
      definitionHash: true,
      reviewDigest: true,
      approvedDigest: true,
      sourceId: true,
      source: { select: { name: true } },
    },
  });
  return rows.map(({ source, ...t }) => ({ ...t, sourceName: source.name }));
}

/** Marks Tools approved: offered under the state their definition is judged to have. */
async function approve(tx: Tx, actor: Actor, tools: Pending[], at: Date, note?: string) {
  if (!tools.length) return;
  const texts = new Map(
    (
      await tx.toolDefinition.findMany({
        where: { hash: { in: [...new Set(tools.map((t) => t.definitionHash))] } },
        select: { hash: true, definition: true },
      })
    ).map((d) => [d.hash, d.definition]),
  );
  const rows = tools.map((t) => {
    const text = texts.get(t.definitionHash) ?? "{}";
    const parsed = JSON.parse(text) as { inputSchema?: unknown };
    const judged = evaluateCompatibility(parsed.inputSchema);
    return {
      id: t.id,
      compatibility: judged.state,
      compatibilityReason: judged.reason,
      reviewDigest: t.reviewDigest ?? reviewDigest(text),
      approvedDigest: t.reviewDigest ?? reviewDigest(text),
      approvedHash: t.definitionHash,
      rejectedDigest: null,
      reviewSince: null,
      reviewChanged: [],
    };
  });
  await bulkUpdate(tx, "tool", APPROVE_COLUMNS, rows);
  const offered = tools.filter((t, i) => rows[i]?.compatibility === "compatible" && t.modelFacingName);
  await tx.catalogChange.createMany({
    data: offered.map((t) => ({
      sourceId: t.sourceId,
      sourceName: t.sourceName,
      at,
      kind: "became_compatible" as const,
      nativeName: t.nativeName,
      modelFacingName: t.modelFacingName,
      detail: "approved",
    })),
  });
  await audit(
    tx,
    actor,
    "tool.approve",
    tools.map((t) => ({ tool: t, details: { digest: t.reviewDigest, previousDigest: t.approvedDigest, note } })),
    at,
  );
}

async function audit(
  tx: Tx,
  actor: Actor,
  action: string,
  entries: { tool: Pending; details: Record<string, unknown> }[],
  at: Date,
) {
  await tx.auditEvent.createMany({
    data: entries.map(({ tool, details }) => ({
      id: randomUUID(),
      at,
      actorType: actor.kind,
      actorId: actorId(actor),
      actorLabel: actorLabel(actor),
      action,
      targetType: "tool",
      targetId: tool.id,
      targetLabel: `${tool.sourceName} / ${tool.nativeName}`,
      details: { sourceId: tool.sourceId, nativeName: tool.nativeName, ...details } as never,
    })),
  });
}

async function finish(tx: Tx, sourceIds: Iterable<string>) {
  for (const id of new Set(sourceIds)) {
    await refreshSourceTotals(tx, id);
    // Moves the catalog's version: listings, tool search and the console read afresh.
    await tx.$executeRaw`UPDATE source SET "catalogVersion" = "catalogVersion" + 1 WHERE id = ${id}`;
  }
}

/** Approves or rejects the Tools the reviewer saw, each by the digest they saw, all or none. */
export const decideReviews = operation({ role: "operator", input: ZReviewDecisionInput }, async (actor, input) => {
  const db = await getDb();
  const ids = [...new Set(input.tools.map((t) => t.id))];
  const at = new Date();
  const result = await db.$transaction(async (tx) => {
    const first = await tx.tool.findMany({ where: { id: { in: ids } }, select: { sourceId: true } });
    // Serialized with publications (publish.ts locks the Source the same way).
    await lockSources(tx, [...new Set(first.map((t) => t.sourceId))]);
    const pending = new Map((await pendingTools(tx, { ids })).map((t) => [t.id, t]));
    const stale = input.tools.filter((t) => pending.get(t.id)?.reviewDigest !== t.digest);
    if (stale.length)
      throw new DomainError(
        "REVIEW_STALE",
        `${stale.length === 1 ? "One Tool" : `${stale.length} Tools`} changed or left the queue since you saw ${stale.length === 1 ? "it" : "them"}: review the current definition${stale.length === 1 ? "" : "s"}. Nothing was decided.`,
        { field: "tools", stale: stale.map((t) => t.id) },
      );
    const tools = ids.map((id) => pending.get(id) as Pending);
    if (input.decision === "approve") await approve(tx, actor, tools, at, input.note);
    else await reject(tx, actor, tools, at, input.note);
    await finish(
      tx,
      tools.map((t) => t.sourceId),
    );
    return { decided: tools.length, decision: input.decision };
  }, TX_OPTIONS);
  announce("catalog");
  return result;
});

async function reject(tx: Tx, actor: Actor, tools: Pending[], at: Date, note?: string) {
  // The digest each was rejected at: the same rows' digests, one statement.
  await tx.$executeRaw`
    UPDATE tool SET compatibility = 'review_rejected', "compatibilityReason" = ${REJECTED_REASON},
                    "rejectedDigest" = "reviewDigest", "reviewSince" = ${at}
    WHERE id = ANY(${tools.map((t) => t.id)}::text[])`;
  await audit(
    tx,
    actor,
    "tool.reject",
    tools.map((t) => ({ tool: t, details: { digest: t.reviewDigest, approvedDigest: t.approvedDigest, note } })),
    at,
  );
}

/** Approves every Tool of a Source that waits, if the catalog is still the one the reviewer saw. */
export const approveSourceReviews = operation({ role: "operator", input: ZReviewSourceInput }, async (actor, input) => {
  const db = await getDb();
  const at = new Date();
  const result = await db.$transaction(async (tx) => {
    const [source] = await tx.$queryRaw<{ id: string; catalogVersion: number }[]>`
      SELECT id, "catalogVersion" FROM source WHERE id = ${input.sourceId} FOR UPDATE`;
    if (!source) throw notFound("Source");
    if (input.catalogVersion !== undefined && source.catalogVersion !== input.catalogVersion)
      throw new DomainError(
        "REVIEW_STALE",
        "The Source's catalog changed since you saw it: review the queue again. Nothing was approved.",
        { field: "catalogVersion" },
      );
    const tools = (await pendingTools(tx, { sourceId: input.sourceId })).filter(
      (t) => t.compatibility === "awaiting_review",
    );
    await approve(tx, actor, tools, at, "approved with every Tool of its Source");
    await finish(tx, [input.sourceId]);
    return { decided: tools.length };
  }, TX_OPTIONS);
  announce("catalog");
  return result;
});

/**
 * "Review everything again": every Tool of the Source offered now waits for a reviewer
 * (approved digests forgotten, so nothing passes without a decision), and the Source is
 * put under the review policy.
 */
export const reviewSourceAgain = operation({ role: "operator", input: ZReviewSourceInput }, async (actor, input) => {
  const db = await getDb();
  const at = new Date();
  const result = await db.$transaction(async (tx) => {
    const locked = await lockSources(tx, [input.sourceId]);
    const source = locked[0];
    if (!source) throw notFound("Source");
    const tools = await tx.tool.findMany({
      where: { sourceId: source.id, compatibility: "compatible" },
      select: { id: true, nativeName: true, modelFacingName: true, definitionHash: true, reviewDigest: true },
    });
    // The definition stays the one to diff against; its digest is forgotten, so nothing
    // passes again without a decision (not even a server flipping back to it).
    await tx.$executeRaw`
      UPDATE tool SET compatibility = 'awaiting_review', "compatibilityReason" = ${awaitingReason([])},
                      "reviewSince" = ${at}, "approvedHash" = "definitionHash", "approvedDigest" = NULL,
                      "reviewChanged" = '{}'
      WHERE id = ANY(${tools.map((t) => t.id)}::text[])`;
    const withoutDigest = tools.filter((t) => !t.reviewDigest);
    if (withoutDigest.length) await fillDigests(tx, withoutDigest);
    await tx.$executeRaw`UPDATE source SET "reviewPolicy" = 'review' WHERE id = ${source.id}`;
    if (tools.length)
      await tx.catalogChange.createMany({
        data: tools
          .filter((t) => t.modelFacingName)
          .map((t) => ({
            sourceId: source.id,
            sourceName: source.name,
            at,
            kind: "became_incompatible" as const,
            nativeName: t.nativeName,
            modelFacingName: t.modelFacingName,
            detail: "awaiting_review",
          })),
      });
    await tx.auditEvent.create({
      data: {
        at,
        actorType: actor.kind,
        actorId: actorId(actor),
        actorLabel: actorLabel(actor),
        action: "source.review_again",
        targetType: "source",
        targetId: source.id,
        targetLabel: source.name,
        details: { tools: tools.length },
      },
    });
    await finish(tx, [source.id]);
    return { awaiting: tools.length };
  }, TX_OPTIONS);
  announce("catalog");
  return result;
});

/** Digests of Tools written before review existed (the migration left them empty). */
async function fillDigests(tx: Tx, tools: { id: string; definitionHash: string }[]) {
  const texts = await tx.toolDefinition.findMany({
    where: { hash: { in: [...new Set(tools.map((t) => t.definitionHash))] } },
    select: { hash: true, definition: true },
  });
  const digestByHash = new Map(texts.map((d) => [d.hash, reviewDigest(d.definition)]));
  for (const t of tools)
    await tx.tool.update({ where: { id: t.id }, data: { reviewDigest: digestByHash.get(t.definitionHash) ?? null } });
}

/**
 * Switches a Source's policy. To `trust`: whatever waits is offered (approved by this
 * operator, audited per Tool). To `review`: what is offered now counts as approved by them.
 */
export const setReviewPolicy = operation({ role: "operator", input: ZSetReviewPolicyInput }, async (actor, input) => {
  const db = await getDb();
  const at = new Date();
  const result = await db.$transaction(async (tx) => {
    const [source] = await tx.$queryRaw<{ id: string; name: string; reviewPolicy: string }[]>`
      SELECT id, name, "reviewPolicy"::text AS "reviewPolicy" FROM source WHERE id = ${input.sourceId} FOR UPDATE`;
    if (!source) throw notFound("Source");
    if (source.reviewPolicy === input.policy) return { policy: input.policy, changed: false };
    let approved = 0;
    if (input.policy === "trust") {
      const tools = await pendingTools(tx, { sourceId: source.id });
      await approve(tx, actor, tools, at, "the Source was switched to trust");
      approved = tools.length;
    } else {
      const unstamped = await tx.tool.findMany({
        where: {
          sourceId: source.id,
          compatibility: "compatible",
          OR: [{ approvedDigest: null }, { reviewDigest: null }],
        },
        select: { id: true, definitionHash: true, reviewDigest: true },
      });
      await fillDigests(
        tx,
        unstamped.filter((t) => !t.reviewDigest),
      );
      await tx.$executeRaw`
        UPDATE tool SET "approvedDigest" = "reviewDigest", "approvedHash" = "definitionHash"
        WHERE "sourceId" = ${source.id} AND compatibility = 'compatible'`;
    }
    await tx.$executeRaw`UPDATE source SET "reviewPolicy" = ${input.policy}::"ReviewPolicy" WHERE id = ${source.id}`;
    await tx.auditEvent.create({
      data: {
        at,
        actorType: actor.kind,
        actorId: actorId(actor),
        actorLabel: actorLabel(actor),
        action: "source.review_policy",
        targetType: "source",
        targetId: source.id,
        targetLabel: source.name,
        details: { from: source.reviewPolicy, to: input.policy, approved },
      },
    });
    await finish(tx, [source.id]);
    return { policy: input.policy, changed: true };
  }, TX_OPTIONS);
  announce("catalog");
  announce("source");
  return result;
});
