/**
 * Memory's background work in one instance: consolidator passes for scopes whose interval
 * is due (claimed by lease, so several instances never run one scope twice), and, when the
 * vector leg is on, embedding memories written since the last round.
 */
import { getDb } from "../../db";
import { log } from "../../log";
import { INSTANCE_ID } from "../catalog/lease";
import { consolidateScope } from "./consolidator";
import { embeddingsProvider, embedPending } from "./embeddings";

/** A pass over 100,000 memories takes well under a minute; a lease several times that. */
const LEASE_MS = 10 * 60_000;

export async function claimDueScopes(limit: number, now = new Date()): Promise<string[]> {
  const db = await getDb();
  const until = new Date(now.getTime() + LEASE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE scope SET "leaseUntil" = ${until}, "leaseOwner" = ${INSTANCE_ID}
    WHERE id IN (
      SELECT id FROM scope
      WHERE "nextConsolidationAt" IS NOT NULL AND "nextConsolidationAt" <= ${now}
        AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextConsolidationAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`;
  return rows.map((r) => r.id);
}

async function consolidateClaimed(scopeId: string): Promise<void> {
  const db = await getDb();
  try {
    await consolidateScope(scopeId);
  } catch (error) {
    log.error({ err: error, scopeId }, "scheduled consolidator pass broke");
  } finally {
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

/** One round: due consolidator passes, then pending embeddings. */
export async function memoryRound(): Promise<void> {
  for (const id of await claimDueScopes(2)) await consolidateClaimed(id);
  if (embeddingsProvider()) {
    try {
      while ((await embedPending(128)) === 128);
    } catch (error) {
      log.warn({ err: error }, "embedding new memories failed; the next round tries again");
    }
  }
}

export interface MemoryScheduler {
  tick(): Promise<void>;
  stop(): Promise<void>;
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
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking;
    },
  };
}
