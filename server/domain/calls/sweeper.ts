/**
 * Keeps the call log within its retention: rows older than the retention setting go,
 * captured payloads go when their own retention ends, and rate-limit counters nobody
 * counts in any more go too. Run on a timer by every instance's scheduler (the deletes
 * are idempotent, so two instances sweeping at once do no harm).
 */
import { getDb } from "../../db";
import { log } from "../../log";
import { sweepApprovedResults } from "../call-policies/approval";
import { sweepClientQuestions } from "../call-policies/client-questions";
import { sweepConfirmationUses } from "../call-policies/confirmation";
import { sweepRateCounters } from "../rate-limits/admit";
import { callLogRetentionDays } from "./settings";

export interface SweepResult {
  rows: number;
  payloads: number;
  captures: number;
  windows: number;
  leases: number;
  confirmations: number;
  questions: number;
  approvedResults: number;
}

export async function sweepCallLog(now = new Date()): Promise<SweepResult> {
  const db = await getDb();
  const days = await callLogRetentionDays();
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const rows = (await db.callLog.deleteMany({ where: { startedAt: { lt: cutoff } } })).count;
  const payloads = (
    await db.callLog.updateMany({
      where: { payloadExpiresAt: { lt: now } },
      data: { arguments: null, result: null, payloadExpiresAt: null },
    })
  ).count;
  // Capture rows of deleted identities (call_capture has no foreign key).
  const captures = await db.$executeRaw`
    DELETE FROM call_capture c WHERE NOT EXISTS (SELECT 1 FROM agent_identity i WHERE i.id = c."identityId")`;
  const counters = await sweepRateCounters();
  // Used confirmations past their expiry: a replay of one is refused by its expiry alone.
  const confirmations = await sweepConfirmationUses(now);
  // Questions asked on a 2025-era client's stream whose call died with its instance.
  const questions = await sweepClientQuestions(now);
  // Results of approved calls kept for their task's later polls, past their keeping.
  const approvedResults = await sweepApprovedResults(now);
  return { rows, payloads, captures, ...counters, confirmations, questions, approvedResults };
}

const SWEEP_MS = 10 * 60_000;

/** Sweeps now and every ten minutes until stopped; started by scripts/start.ts with the other schedulers. */
export function startCallLogSweeper(options: { intervalMs?: number } = {}) {
  let running: Promise<unknown> | null = null;
  const sweep = () => {
    running ??= sweepCallLog()
      .then((r) => {
        if (r.rows || r.payloads) log.info(r, "call log swept");
      })
      .catch((error: unknown) => log.error({ err: error }, "call log sweep failed"))
      .finally(() => {
        running = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, options.intervalMs ?? SWEEP_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
