/**
 * Progress reports on their way to Quartermaster (docs/decisions/0086). A handler may report
 * as often as it likes: each call keeps only its latest value, and one request every
 * interval carries the latest of every call, so a tight loop costs neither the host nor
 * Quartermaster. Best effort: a report that cannot be sent is dropped, never retried behind
 * a newer one (only one the server took for too soon is sent again, if still the latest),
 * and never holds up a result.
 */
import type { HostApi, ProgressLimits } from "./api.ts";
import { utf8Bytes } from "./contract/canonical.ts";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import type { Logger } from "./logger.ts";

export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

interface CallProgress {
  tool: string;
  /** The last value handed over (reports must increase). */
  last: number;
  pending: ProgressReport | null;
  /** Quartermaster said nobody listens (the agent sent no progressToken) or the call is over. */
  silent: boolean;
  warned: boolean;
}

/** Room left in one request body for the reports (the other endpoints' body limit, less the envelope). */
const BODY_BYTES = 64 * 1024 - 64;

export class ProgressSender {
  private readonly calls = new Map<string, CallProgress>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | null = null;

  constructor(
    private readonly api: HostApi,
    private readonly log: Logger,
    /** What the server takes, from its registration answer; undefined: it takes no progress. */
    private readonly limits: () => ProgressLimits | undefined,
    private readonly stopped: () => boolean,
  ) {}

  begin(id: string, tool: string): void {
    this.calls.set(id, { tool, last: Number.NEGATIVE_INFINITY, pending: null, silent: false, warned: false });
  }

  /** The call is over: a report still waiting would arrive after its result, so it is dropped. */
  end(id: string): void {
    this.calls.delete(id);
  }

  report(id: string, progress: unknown, total?: unknown, message?: unknown): void {
    const call = this.calls.get(id);
    const limits = this.limits();
    if (!call || call.silent || !limits) return;
    const refused =
      typeof progress !== "number" || !Number.isFinite(progress) || progress < 0
        ? `progress must be a finite number of at least 0, not ${String(progress)}`
        : total !== undefined && (typeof total !== "number" || !Number.isFinite(total) || total <= 0)
          ? `total must be a finite number above 0 when given, not ${String(total)}`
          : progress <= call.last
            ? `progress ${progress} is not above the last report (${call.last}); it must increase`
            : null;
    if (refused || typeof progress !== "number") {
      this.warn(call, id, refused ?? "");
      return;
    }
    call.last = progress;
    call.pending = {
      progress,
      ...(total !== undefined ? { total: total as number } : {}),
      ...(message !== undefined && message !== null
        ? { message: clipMessage(String(message), limits.messageChars) }
        : {}),
    };
    this.schedule();
  }

  private warn(call: CallProgress, id: string, why: string): void {
    if (call.warned) return;
    call.warned = true;
    this.log.warn(`Call ${id} to ${call.tool}: a progress report was dropped: ${why}.`, {
      callId: id,
      tool: call.tool,
    });
  }

  /** The first report goes at once; later ones at most once an interval, carrying the latest. */
  private schedule(): void {
    if (this.timer || this.sending || this.stopped()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sending = this.flush().finally(() => {
        this.sending = null;
        if ([...this.calls.values()].some((c) => c.pending && !c.silent)) this.schedule();
      });
    }, 0);
  }

  private async flush(): Promise<void> {
    const limits = this.limits();
    if (!limits || this.stopped()) return;
    const started = Date.now();
    const due = [...this.calls.entries()].filter(([, c]) => c.pending && !c.silent);
    while (due.length && !this.stopped()) {
      const batch: { id: string; report: ProgressReport }[] = [];
      let bytes = 0;
      while (due.length && batch.length < limits.reportsPerRequest) {
        const [id, call] = due[0] as [string, CallProgress];
        const entry = { id, report: call.pending as ProgressReport };
        const size = utf8Bytes(JSON.stringify({ id, ...entry.report })) + 1;
        if (batch.length && bytes + size > BODY_BYTES) break;
        due.shift();
        call.pending = null;
        batch.push(entry);
        bytes += size;
      }
      try {
        const answer = await this.api.progress(batch.map(({ id, report }) => ({ id, ...report })));
        for (const id of [...answer.unheard, ...answer.unknown]) {
          const call = this.calls.get(id);
          if (call) call.silent = true;
        }
        for (const refused of answer.refused) {
          // Taken "too soon" by the server's clock (a request's latency varies): the value is
          // still the latest unless a newer one waits, so it goes again next interval. Without
          // this the last report of a call (often its "done") could be lost for good.
          const call = this.calls.get(refused.id);
          const sent = batch.find((entry) => entry.id === refused.id);
          if (refused.code === "TOOL_PROGRESS_TOO_FREQUENT" && call && sent && !call.pending)
            call.pending = sent.report;
          this.log.debug?.(
            `Quartermaster refused a progress report of call ${refused.id}: ${refused.code}: ${refused.message}`,
            {
              callId: refused.id,
              code: refused.code,
            },
          );
        }
      } catch (error) {
        // Progress is a latest value: the next report replaces this one anyway.
        this.log.debug?.(`Progress reports could not be sent: ${(error as Error).message}`);
      }
    }
    // At most one request an interval, whatever the handlers do.
    const interval = limits.intervalMs ?? TOOL_HOST_LIMITS.TOOL_PROGRESS_INTERVAL_MS.value;
    const wait = interval - (Date.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** A message within the server's limit (UTF-16 units, as it counts), whole characters, without NUL (which it refuses). */
function clipMessage(text: string, chars: number): string {
  const clean = text.replaceAll("\u0000", "\uFFFD");
  if (clean.length <= chars) return clean;
  let kept = "";
  for (const character of clean) {
    if (kept.length + character.length > chars - 1) break;
    kept += character;
  }
  return `${kept}…`;
}
