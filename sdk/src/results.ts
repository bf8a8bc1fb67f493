/**
 * Results on their way back to Quartermaster. While one submission is in flight, results
 * that finish meanwhile wait and go together in the next, so a busy host sends few large
 * submissions and an idle one answers at once. Every submission stays within the server's
 * size limit; a result is retried until its call's deadline, across reconnections.
 */
import type { HostApi, SubmissionOutcome } from "./api.ts";
import { utf8Bytes } from "./contract/canonical.ts";
import { fmtBytes } from "./contract/format.ts";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import type { CallResult } from "./define-tool.ts";
import { AuthenticationError, ToolHostError } from "./errors.ts";
import type { Logger } from "./logger.ts";

export interface Pending {
  id: string;
  tool: string;
  json: string;
  bytes: number;
  deadline: number;
}

const ENVELOPE = utf8Bytes('{"results":[]}');

export interface ResultSenderHooks {
  /** Waits until Quartermaster can be reached again (or the host stops). */
  reconnect(cause: ToolHostError): Promise<void>;
  /** The token was refused: nothing can be sent any more. */
  fatal(error: AuthenticationError): void;
  stopped(): boolean;
  /** Whether Quartermaster takes a failed result's code beside its message (its registration answer lists it). */
  takesCode(code: string): boolean;
}

/** Results taken to travel with a collection (submitAndCollect), and the body that carries them. */
export interface CarriedResults {
  batch: Pending[];
  body: string;
}

export class ResultSender {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;
  /** The collector will carry what finishes now in its next request: nothing is sent meanwhile. */
  private holding = false;
  private limitBytes: number = TOOL_HOST_LIMITS.SDK_RESULT_SUBMISSION_BYTES.value;

  constructor(
    private readonly api: HostApi,
    private readonly log: Logger,
    private readonly hooks: ResultSenderHooks,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  push(id: string, tool: string, result: CallResult, deadline: Date): void {
    let json = JSON.stringify({ id, ...result });
    let bytes = utf8Bytes(json);
    const room = this.limitBytes - ENVELOPE;
    if (bytes > room) {
      // Within the character limit yet too large to send (escapes, wide characters): this call fails, alone.
      const message = `The SDK Tool Host's result is ${fmtBytes(bytes)} as JSON; one result submission may be at most ${fmtBytes(this.limitBytes)}.`;
      this.log.warn(`Call ${id} to ${tool} failed: TOOL_RESULT_TOO_LARGE: ${message}`, { callId: id, tool });
      json = this.tooLarge(id, message);
      bytes = utf8Bytes(json);
    }
    this.queue.push({ id, tool, json, bytes, deadline: deadline.getTime() });
    this.kick();
  }

  /** A result too large to send, as the failure of its call: coded where Quartermaster takes the code. */
  private tooLarge(id: string, message: string): string {
    return JSON.stringify(
      this.hooks.takesCode("TOOL_RESULT_TOO_LARGE")
        ? { id, error: message, code: "TOOL_RESULT_TOO_LARGE" }
        : { id, error: `TOOL_RESULT_TOO_LARGE: ${message}` },
    );
  }

  /**
   * Results that finish from now on wait for the collector, which carries them in its next
   * request (take()) instead of a request of their own; until release().
   */
  hold(): void {
    this.holding = true;
  }

  get held(): boolean {
    return this.holding;
  }

  /** Results are sent on their own again, those waiting now included. */
  release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.kick();
  }

  /** The next batch of results for the collector to carry, or null when none is waiting. */
  take(): CarriedResults | null {
    return this.nextBatch();
  }

  /** What Quartermaster made of carried results. */
  settle(carried: CarriedResults, outcome: SubmissionOutcome): void {
    this.report(carried.batch, outcome);
  }

  /** The request carrying these results failed (or was abandoned): they are sent on their own. */
  giveBack(carried: CarriedResults): void {
    this.queue.unshift(...carried.batch);
    this.kick();
  }

  /** Resolves when every queued result was sent (or dropped), or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    this.release();
    const until = Date.now() + timeoutMs;
    while (this.running && Date.now() < until) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.running,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, until - Date.now());
        }),
      ]);
      clearTimeout(timer);
    }
  }

  private kick(): void {
    if (this.running || this.holding || this.hooks.stopped()) return;
    this.running = this.run()
      .catch((error: unknown) => {
        this.log.error(`Sending results failed: ${(error as Error)?.stack ?? String(error)}`);
      })
      .finally(() => {
        this.running = null;
        if (this.queue.length && !this.hooks.stopped()) this.kick();
      });
  }

  /** Takes the next submission's worth of results off the queue (those past their deadline are dropped). */
  private nextBatch(): (CarriedResults & { size: number }) | null {
    const now = Date.now();
    const live = this.queue.filter((p) => p.deadline > now);
    for (const late of this.queue.filter((p) => p.deadline <= now))
      this.log.warn(
        `Dropped the result of call ${late.id} to ${late.tool}: its deadline passed before it could be sent.`,
        {
          callId: late.id,
          tool: late.tool,
        },
      );
    this.queue = live;
    if (!live.length) return null;

    let size = ENVELOPE;
    let count = 0;
    for (const p of live) {
      const added = p.bytes + (count ? 1 : 0);
      if (count && size + added > this.limitBytes) break;
      size += added;
      count++;
    }
    const batch = this.queue.splice(0, count);
    return { batch, body: `{"results":[${batch.map((p) => p.json).join(",")}]}`, size };
  }

  private async run(): Promise<void> {
    while (this.queue.length && !this.holding && !this.hooks.stopped()) {
      const next = this.nextBatch();
      if (!next) return;
      const { batch, body, size } = next;
      try {
        this.report(batch, await this.api.submit(body));
      } catch (error) {
        if (!(error instanceof ToolHostError)) throw error;
        if (error instanceof AuthenticationError) {
          this.queue = [];
          this.hooks.fatal(error);
          return;
        }
        if (error.status === 413) {
          // The server's limit is lower than this SDK's: send smaller submissions from now on,
          // and a result too large for any of them as the failure of its call.
          this.limitBytes = Math.max(ENVELOPE + 1, Math.floor(size / 2));
          const [only] = batch;
          if (batch.length === 1 && only) {
            this.log.warn(`Call ${only.id} to ${only.tool} failed: TOOL_RESULT_TOO_LARGE: ${error.message}`, {
              callId: only.id,
              tool: only.tool,
            });
            const json = this.tooLarge(only.id, error.message);
            this.queue.unshift({ ...only, json, bytes: utf8Bytes(json) });
          } else this.queue.unshift(...batch);
          continue;
        }
        if (error.retryable) {
          this.queue.unshift(...batch);
          await this.hooks.reconnect(error);
          continue;
        }
        this.log.error(
          `Quartermaster refused a result submission (${error.code}: ${error.message}); its results are lost.`,
          {
            calls: batch.map((p) => p.id),
          },
        );
      }
    }
  }

  private report(batch: Pending[], outcome: SubmissionOutcome): void {
    const tools = new Map(batch.map((p) => [p.id, p.tool]));
    for (const refused of outcome.refused ?? [])
      this.log.warn(
        `Quartermaster refused the result of call ${refused.id} to ${tools.get(refused.id) ?? "?"}: ${refused.code}: ${refused.message}`,
        {
          callId: refused.id,
          code: refused.code,
        },
      );
    for (const id of outcome.unknown ?? [])
      this.log.debug?.(`Call ${id} was no longer waiting (past its deadline or answered already).`, { callId: id });
  }
}
