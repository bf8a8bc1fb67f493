/**
 * What a publication decides about review (docs/decisions/0073): under a Source's `review`
 * policy, a Tool that is new or whose reviewed digest differs from the approved one is
 * stored as Awaiting review (or Rejected, when an operator refused that exact digest), so
 * no model is offered it; the same transaction that replaces the catalog moves every such
 * Tool at once. A Source's first successful catalog is approved as its creator's.
 */
import { randomUUID } from "node:crypto";
import type { BulkColumn } from "../../db/bulk";
import type { Tx } from "../../db/types";
import type { Compatibility } from "./compatibility";
import { changedFields, type ReviewedField, reviewDigest } from "./review-digest";
import type { PublishedTool } from "./validate-tool";

export const REVIEW_COLUMNS: BulkColumn[] = [
  { name: "reviewDigest", type: "text" },
  { name: "approvedDigest", type: "text" },
  { name: "approvedHash", type: "text" },
  { name: "rejectedDigest", type: "text" },
  { name: "reviewSince", type: "timestamp(3)" },
  { name: "reviewChanged", type: "text[]" },
];

const FIELD_WORDS: Record<ReviewedField, string> = {
  name: "name",
  title: "title",
  description: "description",
  inputSchema: "input schema",
  outputSchema: "output schema",
  annotations: "annotations",
};

export function fieldList(fields: readonly string[]): string {
  return fields.map((f) => FIELD_WORDS[f as ReviewedField] ?? f).join(", ");
}

export function awaitingReason(changed: readonly string[] | null): string {
  return changed === null
    ? "A new Tool under this Source's review policy: no model is offered it until an operator approves it in Tools → Review."
    : `Changed since an operator approved it (${fieldList(changed) || "definition"}): no model is offered it until an operator approves the new definition in Tools → Review.`;
}

export const REJECTED_REASON =
  "An operator rejected this definition in Tools → Review: no model is offered it until its server publishes another definition (which waits for review again).";

export interface ReviewContext {
  underReview: boolean;
  at: Date;
  /** Approved definitions' text by hash, for what changed. */
  approvedTexts: Map<string, string>;
}

interface OldReview {
  approvedDigest: string | null;
  approvedHash: string | null;
  rejectedDigest: string | null;
}

const digests = new WeakMap<PublishedTool, string>();
export function digestOf(tool: PublishedTool): string {
  let d = digests.get(tool);
  if (!d) {
    d = reviewDigest(tool.canonical);
    digests.set(tool, d);
  }
  return d;
}

export async function reviewContext(
  tx: Tx,
  source: { reviewPolicy: "review" | "trust" },
  baseline: boolean,
  tools: PublishedTool[],
  before: Map<string, OldReview>,
  at: Date,
): Promise<ReviewContext> {
  const underReview = source.reviewPolicy === "review" && !baseline;
  const approvedTexts = new Map<string, string>();
  if (underReview) {
    const hashes = new Set<string>();
    for (const t of tools) {
      const old = before.get(t.nativeName);
      if (old?.approvedHash && old.approvedDigest !== digestOf(t)) hashes.add(old.approvedHash);
    }
    if (hashes.size) {
      const rows = await tx.$queryRaw<{ hash: string; definition: string }[]>`
        SELECT hash, definition FROM tool_definition WHERE hash = ANY(${[...hashes]}::text[])`;
      for (const r of rows) approvedTexts.set(r.hash, r.definition);
    }
  }
  return { underReview, at, approvedTexts };
}

/** The state a new or changed Tool is stored in, and its review columns. */
export function reviewVerdict(
  ctx: ReviewContext,
  tool: PublishedTool,
  old: OldReview | undefined,
  judged: Compatibility,
): { compat: Compatibility; row: Record<string, unknown> } {
  const digest = digestOf(tool);
  const row: Record<string, unknown> = {
    reviewDigest: digest,
    approvedDigest: old?.approvedDigest ?? null,
    approvedHash: old?.approvedHash ?? null,
    rejectedDigest: old?.rejectedDigest ?? null,
    reviewSince: null,
    reviewChanged: [],
  };
  // Under trust, and in a Source's first catalog, whatever is published counts as approved
  // (even a Tool no model can take yet: judged again later, it needs no second review).
  if (!ctx.underReview)
    return { compat: judged, row: { ...row, approvedDigest: digest, approvedHash: tool.definitionHash } };
  // A definition no model could be offered anyway needs no review: its state says why.
  if (judged.state !== "compatible") return { compat: judged, row };
  // Back to (or still) the approved definition, whatever else changed (`_meta`, icons).
  if (old?.approvedDigest === digest) return { compat: judged, row: { ...row, approvedHash: tool.definitionHash } };
  const since = ctx.at.toISOString();
  if (old?.rejectedDigest === digest)
    return { compat: { state: "review_rejected", reason: REJECTED_REASON }, row: { ...row, reviewSince: since } };
  const approvedText = old?.approvedHash ? (ctx.approvedTexts.get(old.approvedHash) ?? null) : null;
  const changed = approvedText ? changedFields(approvedText, tool.canonical) : null;
  return {
    compat: { state: "awaiting_review", reason: awaitingReason(changed) },
    row: { ...row, reviewSince: since, reviewChanged: changed ?? [] },
  };
}

/**
 * Adding a Source is itself a review: its first successful catalog counts as approved by
 * whoever added it, recorded in the audit log with every digest.
 */
export async function recordBaseline(
  tx: Tx,
  source: {
    id: string;
    name: string;
    createdByType: string | null;
    createdById: string | null;
    createdByLabel: string | null;
  },
  tools: PublishedTool[],
  at: Date,
): Promise<void> {
  await tx.$executeRaw`UPDATE source SET "reviewBaselineAt" = ${at} WHERE id = ${source.id}`;
  await tx.auditEvent.create({
    data: {
      id: randomUUID(),
      at,
      actorType: source.createdByType ?? "system",
      actorId: source.createdById,
      actorLabel: source.createdByLabel ?? "Quartermaster",
      action: "tool.approve",
      targetType: "source",
      targetId: source.id,
      targetLabel: source.name,
      details: {
        baseline: true,
        reason: "The Source's first catalog, approved as its creator's when the Source was added.",
        count: tools.length,
        tools: tools.map((t) => ({ name: t.nativeName, digest: digestOf(t) })),
      },
    },
  });
}
