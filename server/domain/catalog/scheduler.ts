/**
 * Background work of one instance: run due catalog checks (claimed by lease, so several
 * instances share the work without doubling it), withdraw silent SDK hosts' Tools,
 * close out checks an earlier process left running when it died, and now and then sweep
 * Tool definitions nothing refers to any more.
 */
import { sweepSignInThrottle } from "../../auth/sign-in-throttle";
import { getDb } from "../../db";
import { INSTANCE_LIMITS } from "../../limits";
import { log } from "../../log";
import { sweepAbandonedCalls } from "../agent-tools/host-calls";
import { recordBudgetSnapshots } from "../identities/budget-history";
import { sweepSilentHosts } from "../sources/tool-hosts";
import { runCatalogCheck } from "./check";
import { sweepDefinitions } from "./definitions";
import { claimDueSources, INTERRUPTED, LEASE_RENEW_MS, runLeased } from "./lease";

export interface Scheduler {
  /** Runs one round now (tests drive the scheduler with this instead of waiting). */
  tick(): Promise<void>;
  /** Claims nothing more from now on; the checks running go on. */
  pause(): void;
  /**
   * Claims nothing more, lets the running checks finish until `until` (epoch ms; default:
   * now), then interrupts the rest; each releases its lease as it ends.
   */
  stop(until?: number): Promise<void>;
}

/**
 * Marks failed the checks still "running" that nothing runs any more: a live check holds
 * its Source's lease and renews it, so one whose Source has no live lease belonged to an
 * instance that stopped. The catalog is untouched (nothing was published).
 */
export async function closeInterruptedChecks(now = new Date()): Promise<number> {
  const db = await getDb();
  const stale = await db.catalogCheck.updateMany({
    where: {
      status: "running",
      // A check's row is written just after its lease is taken; give that a moment.
      startedAt: { lt: new Date(now.getTime() - LEASE_RENEW_MS) },
      source: { OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    },
    data: {
      status: "failed",
      finishedAt: now,
      failureCode: "CATALOG_CHECK_FAILED",
      failureMessage: INTERRUPTED,
    },
  });
  return stale.count;
}

// The sweep reads every stored definition, so it runs far less often than the rounds.
const DEFINITION_SWEEP_EVERY_MS = 10 * 60_000;
// Budget snapshots compare every identity's totals with its last snapshot: one query a minute.
const BUDGET_SNAPSHOT_EVERY_MS = 60_000;

export function startScheduler(options: { intervalMs?: number; concurrency?: number } = {}): Scheduler {
  const intervalMs = options.intervalMs ?? INSTANCE_LIMITS.SCHEDULER_ROUND_MS.value;
  const concurrency = options.concurrency ?? 2;
  let lastSweep = 0;
  let lastSnapshot = 0;
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  let stopped = false;
  let ticking: Promise<void> | null = null;

  async function runOne(sourceId: string) {
    const controller = new AbortController();
    const done = (async () => {
      try {
        const outcome = await runLeased(sourceId, (lost) =>
          runCatalogCheck(sourceId, "schedule", { signal: AbortSignal.any([controller.signal, lost]) }),
        );
        // Recorded in the Source's check history; the terminal only hears of it at debug.
        log.debug(
          { sourceId, status: outcome.status, code: outcome.failure?.code, tools: outcome.tools },
          "scheduled catalog check",
        );
        // A check may have moved the budgets of the identities holding this Source.
        await recordBudgetSnapshots();
      } catch (error) {
        log.error({ err: error, sourceId }, "scheduled catalog check broke");
      } finally {
        running.delete(sourceId);
      }
    })();
    running.set(sourceId, { controller, done });
  }

  async function tick() {
    if (stopped) return;
    try {
      await closeInterruptedChecks();
      await sweepSilentHosts();
      // Budgets move without a check too (a host going silent, a registration).
      if (Date.now() - lastSnapshot >= BUDGET_SNAPSHOT_EVERY_MS) {
        lastSnapshot = Date.now();
        await recordBudgetSnapshots();
      }
      if (Date.now() - lastSweep >= DEFINITION_SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        const swept = await sweepDefinitions();
        if (swept) log.info({ swept }, "swept unreferenced tool definitions");
        const abandoned = await sweepAbandonedCalls();
        if (abandoned) log.info({ abandoned }, "swept Tool Calls whose caller had gone");
        await sweepSignInThrottle();
      }
      const free = concurrency - running.size;
      if (free > 0) for (const id of await claimDueSources(free)) await runOne(id);
    } catch (error) {
      log.error({ err: error }, "scheduler round failed");
    }
  }

  const timer = setInterval(() => {
    ticking ??= tick().finally(() => {
      ticking = null;
    });
  }, intervalMs);
  timer.unref();

  return {
    async tick() {
      await tick();
      await Promise.all([...running.values()].map((r) => r.done));
    },
    pause() {
      stopped = true;
      clearInterval(timer);
    },
    async stop(until = Date.now()) {
      stopped = true;
      clearInterval(timer);
      await ticking;
      const all = () => Promise.all([...running.values()].map((r) => r.done));
      const left = until - Date.now();
      if (running.size && left > 0) {
        log.info(
          { checks: running.size, waitSeconds: Math.round(left / 1000) },
          "letting the running catalog checks finish",
        );
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
      if (running.size)
        log.warn({ checks: running.size }, "grace period over: interrupting the catalog checks still running");
      for (const r of running.values()) r.controller.abort(new Error("Interrupted: Quartermaster was shutting down."));
      await all();
    },
  };
}
