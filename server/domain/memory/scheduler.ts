/**
 * Memory's background work in one instance: consolidator passes for scopes whose interval
 * is due (claimed by lease, so several instances never run one scope twice), and, when the
 * vector leg is on, embedding memories written since the last round; and the scopes'
 * retention rules (retention.ts), at most once a minute per instance.
 */
import { database, getDb } from "../../db";
import { INSTANCE_ID } from "../../instance";
import { claimDue, holdLease } from "../../jobs/lease";
import { INSTANCE_LIMITS } from "../../limits";
import { log } from "../../log";
import { consolidateScope } from "./consolidator";
import { embeddingsProvider, embedPending } from "./embeddings";
import { sweepLinkEvidence } from "./link-evidence";
import { applyRetention } from "./retention";
import { backfillScreening } from "./screening-backfill";
import { refreshSearchStatistics } from "./statistics";

/**
 * Short and renewed by a heartbeat while the pass runs, so the scopes of an instance that
 * died are taken up by another within a minute.
 */
const LEASE_MS = INSTANCE_LIMITS.MEMORY_LEASE_MS.value;

export function claimDueScopes(limit: number, now = new Date()): Promise<string[]> {
  return claimDue("scope", { limit, leaseMs: LEASE_MS, now });
}

async function consolidateClaimed(scopeId: string): Promise<void> {
  const db = await getDb();
  const stopRenewing = holdLease("scope", scopeId, { leaseMs: LEASE_MS });
  try {
    await consolidateScope(scopeId);
  } catch (error) {
    log.error({ err: error, scopeId }, "scheduled consolidator pass broke");
  } finally {
    stopRenewing();
    const scope = await db.scope.findUnique({ where: { id: scopeId }, select: { consolidateEverySeconds: true } });
    await db.scope.updateMany({
      where: { id: scopeId, leaseOwner: INSTANCE_ID },
      data: {
        leaseUntil: null,
        leaseOwner: null,
        nextConsolidationAt: scope ? new Date(Date.now() + scope.consolidateEverySeconds * 1000) : null,
      },
    });
  }
}

// The sweep walks the evidence's time index: every ten minutes is plenty for a days-long retention.
const EVIDENCE_SWEEP_MS = 10 * 60_000;
let lastEvidenceSweep = 0;

/**
 * Housekeeping that must not cost a round its passes: the screening backfill (a batch a
 * round, until done), the embedded database's search statistics (statistics.ts) and the link
 * evidence's sweep.
 */
async function upkeep(): Promise<void> {
  try {
    await backfillScreening();
  } catch (error) {
    log.warn({ err: error }, "screening memories written before screening failed; the next round tries again");
  }
  // PostgreSQL's autovacuum keeps its statistics; the embedded database has none to do it.
  if ((await database()).kind === "embedded")
    try {
      const analyzed = await refreshSearchStatistics();
      if (analyzed.length) log.info({ tables: analyzed }, "memory search statistics refreshed");
    } catch (error) {
      log.warn({ err: error }, "refreshing memory search statistics failed; the next round tries again");
    }
  if (Date.now() - lastEvidenceSweep < EVIDENCE_SWEEP_MS) return;
  lastEvidenceSweep = Date.now();
  try {
    const swept = await sweepLinkEvidence();
    if (swept.aged || swept.over) log.info(swept, "link evidence swept");
  } catch (error) {
    log.warn({ err: error }, "sweeping the link evidence failed; the next round tries again");
  }
}

/** Retention is measured in days: a minute between rounds is plenty, and costs one query a minute. */
const RETENTION_EVERY_MS = 60_000;
let retentionDueAt = 0;

/** One round: due consolidator passes, retention when due, then pending embeddings, then upkeep. */
export async function memoryRound(): Promise<void> {
  for (const id of await claimDueScopes(2)) await consolidateClaimed(id);
  if (Date.now() >= retentionDueAt) {
    retentionDueAt = Date.now() + RETENTION_EVERY_MS;
    try {
      await applyRetention();
    } catch (error) {
      log.error({ err: error }, "retention round failed; the next round tries again");
    }
  }
  if (embeddingsProvider()) {
    try {
      while ((await embedPending(128)) === 128);
    } catch (error) {
      log.warn({ err: error }, "embedding new memories failed; the next round tries again");
    }
  }
  await upkeep();
}

export interface MemoryScheduler {
  tick(): Promise<void>;
  /** Starts no more rounds; waits for the one running until `until` (epoch ms), then lets go of its scopes. */
  stop(until?: number): Promise<void>;
}

export function startMemoryScheduler(intervalMs = 30_000): MemoryScheduler {
  let ticking: Promise<void> | null = null;
  let stopped = false;
  const round = () => {
    if (stopped) return Promise.resolve();
    ticking ??= memoryRound()
      .catch((error: unknown) => log.error({ err: error }, "memory round failed"))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  };
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    tick: round,
    async stop(until = Number.POSITIVE_INFINITY) {
      stopped = true;
      clearInterval(timer);
      if (!ticking) return;
      if (!Number.isFinite(until)) return void (await ticking);
      let cutOff: NodeJS.Timeout | undefined;
      const late = Symbol("late");
      const outcome = await Promise.race([
        ticking,
        new Promise((resolve) => {
          cutOff = setTimeout(() => resolve(late), Math.max(0, until - Date.now()));
        }),
      ]);
      clearTimeout(cutOff);
      if (outcome === late) {
        // The pass is cut off with the process; its scopes are due again for another instance.
        const db = await getDb();
        await db.scope.updateMany({ where: { leaseOwner: INSTANCE_ID }, data: { leaseUntil: null, leaseOwner: null } });
        log.warn("grace period over: left a consolidator pass unfinished for another instance");
      }
    },
  };
}
