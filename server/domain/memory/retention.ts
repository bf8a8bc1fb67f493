/**
 * Retention: a curator's rule that memories of one kind in one scope are erased once older
 * than a number of days (handoffs and debriefs after 90, say). Age is counted from
 * `recordedAt`, which the server sets, never from `occurredAt`, which a writer chooses (a
 * date in the future must not keep a memory forever). A memory pinned in any thread is
 * never removed. Saving a rule needs the digest of its preview, so what the curator saw
 * listed is what it removes now; the memory scheduler applies the rules, one audit entry
 * per memory it erases (decision 0090).
 */
import { createHash } from "node:crypto";
import { actorLabel, SYSTEM } from "../../actor";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError, isDomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { requireScope } from "./access";
import { eraseBodies } from "./erase";
import {
  type TMemoryKind,
  ZRetentionRuleIdInput,
  ZRetentionRuleInput,
  ZSaveRetentionRuleInput,
  ZScopeIdInput,
} from "./schemas";

const DAY_MS = 86_400_000;

interface Rule {
  scopeId: string;
  kind: TMemoryKind;
  days: number;
}

/**
 * The memories the rule removes at `now`, oldest first: of its scope and kind, recorded
 * before the cut-off, not erased yet, and pinned in no thread.
 */
async function expired(db: Tx, rule: Rule, now: Date, limit?: number) {
  const cutoff = new Date(now.getTime() - rule.days * DAY_MS);
  const rows = await db.$queryRawUnsafe<{ id: string; title: string; recordedAt: Date; authorLabel: string }[]>(
    `SELECT m.id, m.title, m."recordedAt", m."authorLabel" FROM memory m
      WHERE m."scopeId" = $1 AND m.kind::text = $2 AND m."recordedAt" < $3 AND m."erasedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM thread_member t WHERE t."memoryId" = m.id AND t."pinnedAt" IS NOT NULL)
      ORDER BY m."recordedAt", m.seq${limit ? ` LIMIT ${Math.trunc(limit)}` : ""}`,
    rule.scopeId,
    rule.kind,
    cutoff,
  );
  return { cutoff, rows };
}

/** Pinned memories the rule would otherwise remove: the preview says they stay. */
async function pinnedKept(db: Tx, rule: Rule, cutoff: Date): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM memory m
      WHERE m."scopeId" = $1 AND m.kind::text = $2 AND m."recordedAt" < $3 AND m."erasedAt" IS NULL
        AND EXISTS (SELECT 1 FROM thread_member t WHERE t."memoryId" = m.id AND t."pinnedAt" IS NOT NULL)`,
    rule.scopeId,
    rule.kind,
    cutoff,
  );
  return Number(row?.n ?? 0);
}

const digestOf = (rule: Rule, ids: string[]) =>
  createHash("sha256")
    .update(`${rule.scopeId}|${rule.kind}|${rule.days}|${[...ids].sort().join(",")}`)
    .digest("hex")
    .slice(0, 32);

/** What the rule would remove now: every memory counted, the first RETENTION_PREVIEW_ITEMS listed. */
export const previewRetention = operation({ role: "curator", input: ZRetentionRuleInput }, async (actor, input) => {
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  const now = new Date();
  const { cutoff, rows } = await expired(db, input, now);
  const max = LIMITS.RETENTION_PREVIEW_ITEMS.value;
  return {
    scope: scope.name,
    kind: input.kind,
    days: input.days,
    cutoff,
    total: rows.length,
    items: rows.slice(0, max),
    listed: Math.min(rows.length, max),
    pinnedKept: await pinnedKept(db, input, cutoff),
    digest: digestOf(
      input,
      rows.map((r) => r.id),
    ),
  };
});

/**
 * Saves the rule (one per scope and kind). Refused unless the preview it names is still what
 * the rule would remove: a memory that aged into it, or left it, since means a new preview.
 */
export const saveRetention = operation({ role: "curator", input: ZSaveRetentionRuleInput }, async (actor, input) => {
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const { rows } = await expired(tx, input, new Date());
    if (
      digestOf(
        input,
        rows.map((r) => r.id),
      ) !== input.previewDigest
    )
      throw new DomainError(
        "CONFLICT",
        `previewDigest: what this rule removes changed since that preview (it would now remove ${rows.length} memories); preview it again before saving.`,
        { field: "previewDigest", total: rows.length },
      );
    const before = await tx.retentionRule.findUnique({
      where: { scopeId_kind: { scopeId: scope.id, kind: input.kind } },
      select: { days: true },
    });
    const rule = await tx.retentionRule.upsert({
      where: { scopeId_kind: { scopeId: scope.id, kind: input.kind } },
      create: { scopeId: scope.id, kind: input.kind, days: input.days, createdBy: actorLabel(actor) },
      update: { days: input.days },
      select: RULE,
    });
    await recordAudit(tx, actor, {
      action: "retention.save",
      targetType: "scope",
      targetId: scope.id,
      targetLabel: scope.name,
      details: { kind: input.kind, days: input.days, before: before?.days ?? null, removesNow: rows.length },
    });
    return rule;
  });
});

export const deleteRetention = operation({ role: "curator", input: ZRetentionRuleIdInput }, async (actor, input) => {
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const rule = await tx.retentionRule.findUnique({
      where: { scopeId_kind: { scopeId: scope.id, kind: input.kind } },
      select: { days: true },
    });
    if (!rule)
      throw new DomainError("NOT_FOUND", `Scope "${scope.name}" has no retention rule for ${input.kind} memories.`, {
        field: "kind",
      });
    await tx.retentionRule.delete({ where: { scopeId_kind: { scopeId: scope.id, kind: input.kind } } });
    await recordAudit(tx, actor, {
      action: "retention.delete",
      targetType: "scope",
      targetId: scope.id,
      targetLabel: scope.name,
      details: { kind: input.kind, days: rule.days },
    });
    return { scopeId: scope.id, kind: input.kind, deleted: true };
  });
});

const RULE = {
  id: true,
  scopeId: true,
  kind: true,
  days: true,
  createdAt: true,
  updatedAt: true,
  createdBy: true,
  lastRunAt: true,
} as const;

export const listRetention = operation({ role: "viewer", input: ZScopeIdInput }, async (actor, { scopeId }) => {
  await requireScope(actor, scopeId, "read");
  const db = await getDb();
  return db.retentionRule.findMany({ where: { scopeId }, orderBy: { kind: "asc" }, select: RULE });
});

/**
 * One scheduler round of retention: every rule, at most RETENTION_BATCH memories each, each
 * rule in its own transaction. Runs on every instance; a memory two instances both pick is
 * erased by the first and skipped by the second (the update is conditional on erasedAt).
 */
export async function applyRetention(now = new Date()): Promise<{ erased: number }> {
  const db = await getDb();
  const rules = await db.retentionRule.findMany({
    select: { id: true, scopeId: true, kind: true, days: true, scope: { select: { name: true } } },
  });
  let erased = 0;
  for (const rule of rules) {
    try {
      erased += await db.$transaction(async (tx) => {
        const { rows } = await expired(tx, rule, now, LIMITS.RETENTION_BATCH.value);
        // Claimed first, so another instance's round finds them erased and leaves them.
        const claimed = await tx.memory.updateMany({
          where: { id: { in: rows.map((r) => r.id) }, erasedAt: null },
          data: { erasedAt: now },
        });
        // Rolled back whole: the next round finds what the other instance left.
        if (claimed.count !== rows.length)
          throw new DomainError("CONFLICT", "Another instance is erasing some of these memories.");
        const reason = `Retention: ${rule.kind} memories are kept ${rule.days} days.`;
        await eraseBodies(
          tx,
          SYSTEM,
          rule.scopeId,
          rows.map((r) => r.id),
          () => reason,
          now,
        );
        for (const r of rows)
          await recordAudit(tx, SYSTEM, {
            action: "memory.expire",
            targetType: "memory",
            targetId: r.id,
            targetLabel: rule.scope.name,
            details: { kind: rule.kind, days: rule.days, recordedAt: r.recordedAt.toISOString(), ruleId: rule.id },
          });
        await tx.retentionRule.update({ where: { id: rule.id }, data: { lastRunAt: now } });
        return rows.length;
      });
    } catch (error) {
      if (isDomainError(error) && error.code === "CONFLICT") continue;
      log.error({ err: error, scopeId: rule.scopeId, kind: rule.kind }, "retention round broke for one rule");
    }
  }
  return { erased };
}
