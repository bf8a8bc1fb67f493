/**
 * Progress of SDK Tool Host calls (docs/decisions/0086). An agent that sends a progressToken
 * with its tools/call gets notifications/progress while the host works: the host reports to
 * any instance (calls/progress), the report is kept in tool_call_progress (the latest only),
 * and the agent's waiting request, on whichever instance it waits, forwards each new value.
 * Reports are bounded: a message of at most TOOL_PROGRESS_MESSAGE_CHARS, one accepted per
 * call every TOOL_PROGRESS_INTERVAL_MS, each greater than the last.
 */
import { z } from "zod";
import { fmt } from "@/universal/format";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import type { ToolHost } from "../sources/tool-hosts";
import { parseInput } from "../validation";
import { signalWakeup } from "./wakeup-listener";
import { watch } from "./wakeups";

/** How often a follower reads the call's progress in case a wake-up (in-process, or NOTIFY) was lost. */
const FOLLOW_MS = 200;

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

const ZReports = z
  .object({
    reports: z
      .array(
        z
          .object({
            id: z.string().min(1).max(64),
            progress: z.number().min(0),
            total: z.number().positive().optional(),
            message: z
              .string()
              .max(LIMITS.TOOL_PROGRESS_MESSAGE_CHARS.value, {
                message: `at most ${fmt(LIMITS.TOOL_PROGRESS_MESSAGE_CHARS.value)} characters (TOOL_PROGRESS_MESSAGE_CHARS)`,
              })
              .refine((m) => !m.includes("\u0000"), "must not contain a NUL character")
              .optional(),
          })
          .strict(),
      )
      .min(1)
      .max(LIMITS.TOOL_HOST_PROGRESS_REPORTS.value),
  })
  .strict();

export interface ProgressOutcome {
  /** Reports the agent's waiting request will forward. */
  accepted: string[];
  /** Calls whose agent sent no progressToken: nothing was kept, and later reports for them need not be sent. */
  unheard: string[];
  /** Reports refused alone: a value not above the last, or sooner than the interval allows. */
  refused: { id: string; code: string; message: string }[];
  /** Calls this host does not hold running: answered, cancelled, past their deadline, another host's, or never made. */
  unknown: string[];
}

/** Takes a host's progress reports; each stands alone. */
export async function reportHostProgress(host: ToolHost, body: unknown): Promise<ProgressOutcome> {
  const { reports } = parseInput(ZReports, body, { anyText: true });
  const db = await getDb();
  const outcome: ProgressOutcome = { accepted: [], unheard: [], refused: [], unknown: [] };
  for (const report of reports) {
    const now = new Date();
    const earliest = new Date(now.getTime() - LIMITS.TOOL_PROGRESS_INTERVAL_MS.value);
    // One statement: only a call this host holds running, whose agent listens, moving forward.
    const updated = await db.$executeRaw`
      UPDATE tool_call_progress p
      SET progress = ${report.progress}, total = ${report.total ?? null}, message = ${report.message ?? null}, "reportedAt" = ${now}
      FROM tool_call c
      WHERE p."callId" = ${report.id} AND c.id = p."callId" AND c."sourceId" = ${host.id} AND c.status = 'delivered'
        AND (p.progress IS NULL OR p.progress < ${report.progress})
        AND (p."reportedAt" IS NULL OR p."reportedAt" <= ${earliest})`;
    if (updated) {
      outcome.accepted.push(report.id);
      // Wakes the follower on whichever instance holds the agent's stream (NOTIFY on PostgreSQL).
      await signalWakeup(`progress:${report.id}`);
      continue;
    }
    // Refused: say why, without telling one host anything about another's calls.
    const call = await db.toolCall.findFirst({
      where: { id: report.id, sourceId: host.id, status: "delivered" },
      select: { progress: { select: { progress: true, reportedAt: true } } },
    });
    if (!call) outcome.unknown.push(report.id);
    else if (!call.progress) outcome.unheard.push(report.id);
    else if (call.progress.progress !== null && call.progress.progress >= report.progress)
      outcome.refused.push({
        id: report.id,
        code: "TOOL_PROGRESS_NOT_INCREASING",
        message: `progress ${report.progress} is not greater than this call's last report (${call.progress.progress}); progress must increase with each report.`,
      });
    else
      outcome.refused.push({
        id: report.id,
        code: "TOOL_PROGRESS_TOO_FREQUENT",
        message: `This call's last progress report was taken less than ${fmt(LIMITS.TOOL_PROGRESS_INTERVAL_MS.value)} ms ago (TOOL_PROGRESS_INTERVAL_MS); report again later with the newer value.`,
      });
  }
  return outcome;
}

export interface ProgressFollower {
  /** Stops forwarding; resolves once a notification being sent has gone, so the result comes after it. */
  stop(): Promise<void>;
}

/**
 * Forwards each new report of a call created listened to (its tool_call_progress row) to `send` until stopped.
 * A report wakes it at once, from this instance or (PostgreSQL's NOTIFY) another; it also
 * reads every FOLLOW_MS. Reports faster than it forwards are coalesced: progress is a latest value.
 */
export function followHostProgress(
  callId: string,
  send: (update: ProgressUpdate) => Promise<void> | void,
): ProgressFollower {
  const reports = watch(`progress:${callId}`);
  const stopped = new AbortController();
  let last = Number.NEGATIVE_INFINITY;
  let gone = false;
  /** Sends the call's latest report if it is newer than the last one sent. */
  const forward = async () => {
    const db = await getDb();
    const row = await db.toolCallProgress.findUnique({
      where: { callId },
      select: { progress: true, total: true, message: true },
    });
    if (!row || row.progress === null || row.progress <= last) return;
    last = row.progress;
    try {
      await send({
        progress: row.progress,
        ...(row.total !== null ? { total: row.total } : {}),
        ...(row.message !== null ? { message: row.message } : {}),
      });
    } catch {
      // The agent's stream is gone (it hung up): the call's own waiter learns that from its signal.
      gone = true;
    }
  };
  const loop = (async () => {
    while (!stopped.signal.aborted && !gone) {
      await reports.pause(FOLLOW_MS, stopped.signal);
      if (stopped.signal.aborted) break;
      await forward();
    }
  })().catch(() => {
    // The database went away under a read: the call's waiter fails on its own read.
  });
  return {
    async stop() {
      stopped.abort();
      await loop;
      reports.close();
      // A report taken just before the result still reaches the agent, and before the result:
      // without this, a loaded instance dropped the last value (the one saying "done").
      if (!gone) await forward().catch(() => {});
    },
  };
}
