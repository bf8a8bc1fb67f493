/**
 * An SDK Tool Host: Tools defined in code, served to Quartermaster's agents. serve()
 * registers the Tool list, then keeps the host alive (heartbeats), collects calls with a
 * long poll, runs handlers concurrently and sends their results back in batches. When
 * Quartermaster is unreachable or restarting it backs off and reconnects, registering
 * again; close() stops collecting and lets the calls in flight finish.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { type CollectedCall, HostApi, type RegistrationAnswer } from "./api.ts";
import { Backoff, type BackoffOptions, sleep } from "./backoff.ts";
import { utf8Bytes } from "./contract/canonical.ts";
import { evaluateSchemaCompatibility } from "./contract/compatibility.ts";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import { checkRegistration, checkRegistrationBodyBytes, REGISTRATION_FAILURE_STATUS } from "./contract/tool-checks.ts";
import { type CallResult, DefinedTool, errorText, reservedArguments, type ToolSpec } from "./define-tool.ts";
import { AuthenticationError, RegistrationError, ToolDefinitionError, ToolHostError } from "./errors.ts";
import { consoleLogger, type Logger, silentLogger } from "./logger.ts";
import { ProgressSender } from "./progress.ts";
import { ResultSender } from "./results.ts";
import { SDK_PACKAGE, SDK_VERSION } from "./version.ts";

export interface ToolHostOptions {
  /** Quartermaster's address, e.g. https://quartermaster.example.com. */
  url: string | URL;
  /** The SDK Tool Host's token (qm_host_…), shown once when an operator created the host. */
  token: string;
  /** Most handlers running at once (default 16); calls beyond it wait in Quartermaster for a free worker. */
  concurrency?: number;
  /** How long close() waits for calls in flight before failing them (default 10,000 ms). */
  closeGraceMs?: number;
  /** Waits between attempts while Quartermaster is unreachable (default 500 ms doubling to 30 s, with jitter). */
  backoff?: BackoffOptions;
  /** Where to report what happens (default: console); false for silence. */
  logger?: Logger | false;
  /** Called when the host stops for good while serving (its token was refused); it has closed itself. */
  onError?: (error: ToolHostError) => void;
  /** A fetch to send requests with (a proxy, custom TLS). */
  fetch?: typeof fetch;
  /**
   * Refuse a Tool no model would be offered (a "__" argument, a root that is not an object, …)
   * with a ToolDefinitionError from host.tool(), instead of registering it with a warning
   * (default false: the other Tools are served, as Quartermaster itself does).
   */
  strict?: boolean;
}

/** What serve() resolves with: the registration as Quartermaster took it. */
export interface ServeSummary {
  /** The SDK Tool Host's Source id (undefined from servers that do not say). */
  sourceId: string | undefined;
  /** Every Tool registered, by the name this host gave it; empty while an operator has the host paused. */
  registered: string[];
  /** The registered Tools agents holding the Source are offered. */
  offered: string[];
  /** Registered Tools offered to no model: their model-compatibility or review state, and what to change. */
  notOffered: { tool: string; state: string; reason: string | null }[];
  added: number;
  removed: number;
  changed: number;
  /** An operator paused the host: Quartermaster keeps the Tools it had and the host registers again with each heartbeat. */
  paused: boolean;
  /** After this long without a heartbeat the host's Tools are withdrawn (set on the Source). */
  heartbeatTimeoutSeconds: number;
  /** How often this host sends heartbeats: a third of the timeout. */
  heartbeatIntervalMs: number;
}

export type ToolHostState = "defining" | "starting" | "serving" | "reconnecting" | "closing" | "closed";

interface ActiveCall {
  id: string;
  tool: string;
  deadline: Date;
  controller: AbortController;
  promise: Promise<void>;
  /** close() gave up on it, or its agent cancelled it: its late result is not sent. */
  abandoned: boolean;
}

/** Longest close() spends sending the last results after the calls finished. */
const RESULT_DRAIN_MS = 5_000;
/** Longest close() waits for Quartermaster to take its goodbye (without it, the heartbeat timeout withdraws the Tools). */
const GOODBYE_MS = 5_000;
const COLLECT_WAIT_SECONDS = TOOL_HOST_LIMITS.TOOL_HOST_COLLECT_WAIT_SECONDS.value;
/**
 * How long a call runs before the cancellation watch asks about it. Most calls finish sooner
 * than an agent could cancel them: they cost no watch request of their own, and a busy host
 * restarts its watch at most this often. A cancellation still reaches a handler well within a second.
 */
const WATCH_AFTER_MS = 250;
/** A host's heartbeat timeout when the server does not say (its default). */
const DEFAULT_HEARTBEAT_TIMEOUT_SECONDS = 120;

/** A third of the timeout: two heartbeats can be lost before the host's Tools are withdrawn. */
function heartbeatInterval(timeoutSeconds: number): number {
  return Math.min(600_000, Math.max(1_000, (timeoutSeconds * 1000) / 3));
}

export function createToolHost(options: ToolHostOptions): ToolHost {
  return new ToolHost(options);
}

export class ToolHost {
  private readonly api: HostApi;
  private readonly log: Logger;
  private readonly tools = new Map<string, DefinedTool>();
  private readonly concurrency: number;
  private readonly graceMs: number;
  private readonly backoffOptions: BackoffOptions;
  private readonly onError?: (error: ToolHostError) => void;
  private readonly url: string;
  private current: ToolHostState = "defining";
  private registrationBody = "";
  /** Aborted when close() begins: no more collecting. */
  private readonly closing = new AbortController();
  /** Aborted when close() ends: no more requests of any kind. */
  private readonly stopped = new AbortController();
  private poll: AbortController | null = null;
  private readonly active = new Map<string, ActiveCall>();
  private slotWaiter: (() => void) | null = null;
  private readonly results: ResultSender;
  private readonly progress: ProgressSender;
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  /** The heartbeat being sent: a goodbye waits for it, or the heartbeat would land after and bring the Tools back. */
  private beating: Promise<unknown> | null = null;
  private heartbeatMs = heartbeatInterval(DEFAULT_HEARTBEAT_TIMEOUT_SECONDS);
  private heartbeatTimeoutSeconds = DEFAULT_HEARTBEAT_TIMEOUT_SECONDS;
  private readonly strict: boolean;
  private lastRegistration: RegistrationAnswer | null = null;
  private reconnecting: Promise<void> | null = null;
  private registering: Promise<void> | null = null;
  /** An operator paused the host: its registration is tried again with each heartbeat. */
  private registrationPending = false;
  private collector: Promise<void> | null = null;
  /** The cancellation watch over the calls in flight, and the ids it asked about. */
  private watcher: Promise<void> | null = null;
  private watchPoll: { controller: AbortController; ids: Set<string> } | null = null;
  private watchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Quartermaster predates cancellation watches (404): no more asking. */
  private watchUnsupported = false;
  /** The token was refused: a goodbye would be refused too. */
  private tokenRefused = false;
  private closed: Promise<void> | null = null;

  constructor(options: ToolHostOptions) {
    if (!options || typeof options.token !== "string" || !options.token.trim())
      throw new TypeError("token: the SDK Tool Host's token (qm_host_…) is required.");
    this.api = new HostApi(options.url, options.token.trim(), options.fetch, randomUUID());
    this.url = String(options.url);
    this.log = options.logger === false ? silentLogger : (options.logger ?? consoleLogger);
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 16));
    this.graceMs = Math.max(0, options.closeGraceMs ?? 10_000);
    this.backoffOptions = options.backoff ?? {};
    this.onError = options.onError;
    this.strict = options.strict ?? false;
    this.results = new ResultSender(this.api, this.log, {
      reconnect: (cause) => this.reconnect(cause),
      fatal: (error) => this.fail(error),
      stopped: () => this.stopped.signal.aborted,
      takesCode: (code) => this.lastRegistration?.resultCodes?.includes(code) ?? false,
    });
    this.progress = new ProgressSender(
      this.api,
      this.log,
      () => this.lastRegistration?.progress,
      () => this.stopped.signal.aborted,
    );
  }

  /** Where the host is in its life: defining Tools, starting, serving, reconnecting, closing, closed. */
  get state(): ToolHostState {
    return this.current;
  }

  /** Calls whose handlers are running now. */
  get inFlight(): number {
    return this.active.size;
  }

  /**
   * Defines a Tool. Its schemas are converted and checked against Quartermaster's per-Tool
   * limits now: a Tool over one throws a RegistrationError here, naming the Tool and the limit.
   */
  tool<I extends z.ZodType, O extends z.ZodType | undefined = undefined>(spec: ToolSpec<I, O>): this {
    if (this.current !== "defining")
      throw new ToolDefinitionError(
        "TOOLS_FIXED_AFTER_SERVE",
        `Tool "${spec?.name}" was defined after serve(): define every Tool first (a host registers its whole list once).`,
        { tool: spec?.name },
      );
    const tool = new DefinedTool(spec as unknown as ToolSpec<z.ZodType, z.ZodType | undefined>, this.tools.size);
    if (this.tools.has(tool.name))
      throw new RegistrationError(
        "CATALOG_DUPLICATE_TOOL_NAME",
        `Two Tools are named "${tool.name}"; native names must be unique within a Source.`,
        { tool: tool.name },
        REGISTRATION_FAILURE_STATUS.CATALOG_DUPLICATE_TOOL_NAME,
        true,
      );
    if (this.strict) {
      const verdict = evaluateSchemaCompatibility(tool.definition.inputSchema);
      if (verdict.state !== "compatible")
        throw new ToolDefinitionError(
          "TOOL_NOT_OFFERABLE",
          `Tool "${tool.name}" would be offered to no model (${verdict.state}): ${verdict.reason}${fixFor(tool)} (strict mode refuses it; without strict the host registers it and warns).`,
          { tool: tool.name, state: verdict.state },
        );
    }
    this.tools.set(tool.name, tool);
    return this;
  }

  /**
   * Registers the Tool list and starts serving; resolves once Quartermaster has the list,
   * with what it registered and offers. While Quartermaster cannot be reached it keeps
   * trying (with back-off). Rejects with a RegistrationError when the list breaks a limit
   * (found before any request when the SDK can tell) and with an AuthenticationError when
   * the token is refused.
   */
  async serve(): Promise<ServeSummary> {
    if (this.current !== "defining")
      throw new ToolHostError("ALREADY_SERVING", `serve() was called twice (the host is ${this.current}).`);
    try {
      this.registrationBody = this.buildRegistration();
    } catch (error) {
      this.current = "closed";
      this.stopped.abort();
      throw error;
    }
    this.current = "starting";
    const backoff = new Backoff(this.backoffOptions);
    for (;;) {
      try {
        await this.register();
        break;
      } catch (error) {
        if (this.stopped.signal.aborted || this.closing.signal.aborted)
          throw new ToolHostError("CLOSED", "close() was called before the host had registered.");
        if (error instanceof ToolHostError && error.retryable) {
          const wait = backoff.next();
          this.log.warn(`${error.message} Trying again in ${(wait / 1000).toFixed(1)} s.`, {
            attempt: backoff.attempts,
          });
          await sleep(wait, this.closing.signal);
          if (this.closing.signal.aborted)
            throw new ToolHostError("CLOSED", "close() was called before the host had registered.");
          continue;
        }
        this.current = "closed";
        this.stopped.abort();
        throw error;
      }
    }
    const summary = this.summary();
    if (this.closing.signal.aborted) return summary;
    this.current = "serving";
    void this.beat();
    this.collector = this.collect().catch((error: unknown) => {
      // A bug, not a condition: say so loudly rather than stop collecting without a word.
      this.log.error(`Collecting calls stopped: ${(error as Error)?.stack ?? String(error)}`);
    });
    return summary;
  }

  private summary(): ServeSummary {
    const answer = this.registrationPending ? null : this.lastRegistration;
    const notOffered = answer?.incompatible ?? [];
    const registered = answer ? [...this.tools.keys()] : [];
    const refused = new Set(notOffered.map((t) => t.tool));
    return {
      sourceId: answer?.sourceId,
      registered,
      offered: registered.filter((name) => !refused.has(name)),
      notOffered,
      added: answer?.added ?? 0,
      removed: answer?.removed ?? 0,
      changed: answer?.changed ?? 0,
      paused: this.registrationPending,
      heartbeatTimeoutSeconds: this.heartbeatTimeoutSeconds,
      heartbeatIntervalMs: this.heartbeatMs,
    };
  }

  /**
   * Stops collecting calls, waits up to the grace period for the calls in flight (their
   * results are sent), fails any still running, then stops heartbeats.
   */
  close(options: { graceMs?: number } = {}): Promise<void> {
    this.closed ??= this.shutDown(options.graceMs ?? this.graceMs);
    return this.closed;
  }

  private async shutDown(graceMs: number): Promise<void> {
    const wasServing = this.current === "serving" || this.current === "reconnecting";
    this.current = "closing";
    this.closing.abort();
    this.poll?.abort();
    this.wakeCollector();
    // Calls a last collection brought back are started before the grace period is counted.
    await this.collector;
    const running = [...this.active.values()];
    if (running.length) {
      this.log.info(`Closing: waiting up to ${graceMs} ms for ${running.length} call(s) in flight.`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled(running.map((c) => c.promise)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      for (const call of this.active.values()) {
        if (call.abandoned) continue; // cancelled by its agent: nobody waits for its failure either
        call.abandoned = true;
        call.controller.abort(new Error("The SDK Tool Host is shutting down."));
        this.log.warn(
          `Call ${call.id} to ${call.tool} did not finish within the ${graceMs} ms grace period; it fails.`,
          {
            callId: call.id,
            tool: call.tool,
          },
        );
        this.results.push(
          call.id,
          call.tool,
          { error: "The SDK Tool Host shut down before this call finished." },
          call.deadline,
        );
      }
      this.active.clear();
    }
    await this.results.drain(RESULT_DRAIN_MS);
    clearTimeout(this.heartbeatTimer);
    clearTimeout(this.watchTimer);
    if (wasServing && !this.tokenRefused) await this.sayGoodbye();
    this.stopped.abort();
    this.current = "closed";
    if (wasServing) this.log.info("Closed: no longer collecting calls or sending heartbeats.");
  }

  /**
   * Tells Quartermaster this process is going, so the host's Tools are withdrawn now (unless
   * another process serves them) and calls queued for it fail at once with TOOL_HOST_OFFLINE
   * instead of waiting out their deadline. Best effort: the heartbeat timeout still applies.
   */
  private async sayGoodbye(): Promise<void> {
    if (this.beating) await Promise.race([this.beating.catch(() => {}), sleep(GOODBYE_MS, this.stopped.signal)]);
    try {
      const answer = await this.api.goodbye(GOODBYE_MS);
      if (answer?.withdrawn === false)
        this.log.info(
          `Said goodbye; ${answer.otherProcesses} other process(es) serving with this token keep the Tools offered.`,
        );
      else this.log.info("Said goodbye: Quartermaster withdrew this host's Tools.");
    } catch (error) {
      this.log.warn(
        `Could not say goodbye (${(error as Error).message}); Quartermaster withdraws the Tools at the heartbeat timeout.`,
      );
    }
  }

  /** The registration body, checked as Quartermaster will check it; throws RegistrationError. */
  private buildRegistration(): string {
    const tools = [...this.tools.values()].map((t) => t.registered);
    const checked = checkRegistration({ tools });
    if (!checked.ok) {
      const { code, message, details } = checked.failure;
      throw new RegistrationError(code, message, details, REGISTRATION_FAILURE_STATUS[code], true);
    }
    const body = JSON.stringify({ hostInfo: { name: SDK_PACKAGE, version: SDK_VERSION }, tools });
    const tooLarge = checkRegistrationBodyBytes(utf8Bytes(body));
    if (tooLarge)
      throw new RegistrationError(
        tooLarge.code,
        tooLarge.message,
        tooLarge.details,
        REGISTRATION_FAILURE_STATUS[tooLarge.code],
        true,
      );
    if (!tools.length) this.log.warn("Registering no Tools: this withdraws every Tool the host published before.");
    return body;
  }

  /** One registration; several callers at once share it. */
  private register(): Promise<void> {
    this.registering ??= this.registerOnce().finally(() => {
      this.registering = null;
    });
    return this.registering;
  }

  private async registerOnce(): Promise<void> {
    let answer: RegistrationAnswer;
    try {
      answer = await this.api.register(this.registrationBody, this.stopped.signal);
    } catch (error) {
      if (error instanceof RegistrationError && error.code === "SOURCE_PAUSED") {
        if (!this.registrationPending)
          this.log.warn(
            `${error.message} Serving the Tools Quartermaster already has; registering again with each heartbeat.`,
          );
        this.registrationPending = true;
        return;
      }
      throw error;
    }
    this.registrationPending = false;
    this.lastRegistration = answer;
    if (typeof answer.heartbeatTimeoutSeconds === "number") this.setHeartbeatTimeout(answer.heartbeatTimeoutSeconds);
    const offered = answer.tools - (answer.incompatible?.length ?? 0);
    this.log.info(
      `Registered ${answer.tools} Tool(s) with Quartermaster at ${this.url} (${offered} offered to models; ${answer.added} added, ${answer.removed} removed, ${answer.changed} changed).`,
    );
    this.warnIncompatible(answer);
  }

  /** Says which Tools no model will be offered, and how to fix each, naming what only this host may see. */
  private warnIncompatible(answer: RegistrationAnswer): void {
    const verdicts =
      answer.incompatible ??
      // A server that does not say: the one rule the SDK can see for itself.
      [...this.tools.values()]
        .filter((t) => reservedArguments(t.definition).length)
        .map((t) => ({ tool: t.name, state: "schema_unsupported", reason: null }));
    for (const verdict of verdicts) {
      const fix = fixFor(this.tools.get(verdict.tool));
      this.log.warn(
        `Tool "${verdict.tool}" is registered but offered to no model (${verdict.state})${verdict.reason ? `: ${verdict.reason}` : "."}${fix}`,
        { tool: verdict.tool, state: verdict.state },
      );
    }
  }

  private async beat(): Promise<void> {
    if (this.stopped.signal.aborted) return;
    try {
      if (this.registrationPending) await this.register();
      const sent = this.api.heartbeat(this.stopped.signal);
      this.beating = sent;
      const answer = await sent.finally(() => {
        if (this.beating === sent) this.beating = null;
      });
      this.setHeartbeatTimeout(answer.heartbeatTimeoutSeconds);
    } catch (error) {
      if (this.stopped.signal.aborted) return;
      if (error instanceof AuthenticationError) return this.fail(error);
      if (error instanceof ToolHostError && error.retryable) void this.reconnect(error);
      else this.log.warn(`Heartbeat failed: ${(error as Error).message}`);
    }
    if (!this.stopped.signal.aborted) {
      clearTimeout(this.heartbeatTimer);
      this.heartbeatTimer = setTimeout(() => void this.beat(), this.heartbeatMs);
    }
  }

  private setHeartbeatTimeout(seconds: number): void {
    this.heartbeatTimeoutSeconds = seconds;
    this.heartbeatMs = heartbeatInterval(seconds);
  }

  /**
   * Waits until Quartermaster answers again, registering anew: a restarted (or restored)
   * Quartermaster then has this host's list whatever it had before. Shared by every loop.
   */
  private reconnect(cause: ToolHostError): Promise<void> {
    if (this.stopped.signal.aborted) return Promise.resolve();
    this.reconnecting ??= (async () => {
      if (this.current === "serving") this.current = "reconnecting";
      this.log.warn(`Lost Quartermaster: ${cause.message} Reconnecting with back-off.`);
      const backoff = new Backoff(this.backoffOptions);
      while (!this.stopped.signal.aborted) {
        await sleep(backoff.next(), this.stopped.signal);
        if (this.stopped.signal.aborted) break;
        try {
          await this.register();
          this.log.info(`Reconnected to Quartermaster after ${backoff.attempts} attempt(s).`);
          break;
        } catch (error) {
          if (error instanceof AuthenticationError) {
            this.fail(error);
            break;
          }
          if (error instanceof RegistrationError) {
            // Reachable, but this server refuses the list (its limits changed): it keeps the Tools it has.
            this.log.error(`Quartermaster refused the Tool list: ${error.code}: ${error.message}`, {
              ...error.details,
            });
            break;
          }
          if (backoff.attempts % 10 === 0)
            this.log.warn(`Still cannot reach Quartermaster: ${(error as Error).message}`);
        }
      }
      if (this.current === "reconnecting") this.current = "serving";
    })().finally(() => {
      this.reconnecting = null;
    });
    return this.reconnecting;
  }

  /** The token was refused while serving: nothing more can be done with it. */
  private fail(error: AuthenticationError): void {
    if (this.closed) return;
    this.tokenRefused = true;
    this.log.error(
      `Quartermaster refused the host token (${error.message}); the host stops. Was the token rotated or the SDK Tool Host deleted?`,
    );
    void this.close({ graceMs: 0 });
    try {
      this.onError?.(error);
    } catch (thrown) {
      this.log.error(`onError threw: ${(thrown as Error)?.message ?? String(thrown)}`);
    }
  }

  /** `promise`, or less if close() begins first (the collector must not hold close() up). */
  private untilClosing(promise: Promise<void>): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.closing.signal.removeEventListener("abort", done);
        resolve();
      };
      this.closing.signal.addEventListener("abort", done, { once: true });
      promise.then(done, done);
    });
  }

  private slotFree(): Promise<void> {
    if (this.active.size < this.concurrency || this.closing.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.slotWaiter = resolve;
    });
  }

  private wakeCollector(): void {
    const waiter = this.slotWaiter;
    this.slotWaiter = null;
    waiter?.();
  }

  private async collect(): Promise<void> {
    try {
      await this.collectLoop();
    } finally {
      this.results.release();
    }
  }

  private async collectLoop(): Promise<void> {
    const backoff = new Backoff(this.backoffOptions);
    while (!this.closing.signal.aborted) {
      // A host whose workers are all busy does not keep finished results back while it waits for one.
      if (this.active.size >= this.concurrency) this.results.release();
      await this.slotFree();
      if (this.closing.signal.aborted) break;
      if (this.reconnecting) {
        this.results.release();
        await this.untilClosing(this.reconnecting);
        continue;
      }
      const max = Math.min(TOOL_HOST_LIMITS.TOOL_HOST_COLLECT_CALLS.value, this.concurrency - this.active.size);
      // The results of the calls just started that finished already go with this collection
      // (decision 0093): one request instead of a submission and a collection.
      const carried = this.results.held ? this.results.take() : null;
      this.results.release();
      this.poll = new AbortController();
      let calls: CollectedCall[];
      try {
        if (carried) {
          let answer: Awaited<ReturnType<HostApi["submitAndCollect"]>>;
          try {
            answer = await this.api.submitAndCollect(carried.body, COLLECT_WAIT_SECONDS, max, this.poll.signal);
          } catch (error) {
            // Perhaps not taken: sent again on their own (a result taken already is answered "unknown").
            this.results.giveBack(carried);
            throw error;
          }
          this.results.settle(carried, answer.outcome);
          calls = answer.calls;
        } else calls = await this.api.collect(COLLECT_WAIT_SECONDS, max, this.poll.signal);
        backoff.reset();
      } catch (error) {
        if (this.closing.signal.aborted) break;
        if (error instanceof AuthenticationError) {
          this.fail(error);
          break;
        }
        if (error instanceof ToolHostError && error.retryable) await this.untilClosing(this.reconnect(error));
        else {
          this.log.warn(`Collecting calls failed: ${(error as Error).message}`);
          await sleep(backoff.next(), this.closing.signal);
        }
        continue;
      } finally {
        this.poll = null;
      }
      if (!calls.length) continue;
      // Results of handlers that finish at once wait for the next collection, which carries
      // them: a busy host needs no request of their own, nor one more collection.
      if (this.lastRegistration?.collectWithResults) this.results.hold();
      for (const call of calls) this.start(call);
      if (this.results.held) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private start(call: CollectedCall): void {
    const parsed = Date.parse(call.deadline);
    const tool = this.tools.get(call.tool);
    const fallback = (tool?.timeoutSeconds ?? TOOL_HOST_LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS.value) * 1000;
    const deadline = new Date(Number.isFinite(parsed) ? parsed : Date.now() + fallback);
    if (!tool) {
      // Quartermaster's list is not this host's (another version registered it): fail the call, register ours.
      this.log.warn(
        `Quartermaster sent a call to "${call.tool}", which this host does not define; registering its Tools again.`,
      );
      this.results.push(
        call.id,
        call.tool,
        { error: errorText(`This SDK Tool Host has no Tool named "${call.tool}" any more.`) },
        deadline,
      );
      void this.register().catch((error: unknown) =>
        this.log.warn(`Registering again failed: ${(error as Error).message}`),
      );
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error("The call's deadline passed.")),
      Math.max(0, deadline.getTime() - Date.now()),
    );
    const entry: ActiveCall = {
      id: call.id,
      tool: call.tool,
      deadline,
      controller,
      abandoned: false,
      promise: Promise.resolve(),
    };
    this.progress.begin(call.id, call.tool);
    entry.promise = (async () => {
      const context = {
        callId: call.id,
        tool: call.tool,
        deadline,
        signal: controller.signal,
        progress: (progress: number, total?: number, message?: string) =>
          this.progress.report(call.id, progress, total, message),
      };
      const { result, problem, error } = await tool.run(call.arguments, context);
      clearTimeout(timer);
      this.progress.end(call.id);
      if (entry.abandoned) return;
      this.active.delete(call.id);
      this.wakeCollector();
      if (problem)
        this.log.warn(`Call ${call.id} to ${call.tool} failed: ${problem}`, {
          callId: call.id,
          tool: call.tool,
          ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
        });
      if (Date.now() > deadline.getTime()) {
        this.log.warn(
          `Call ${call.id} to ${call.tool} finished after its deadline; the agent was already told it timed out.`,
        );
        return;
      }
      this.results.push(call.id, call.tool, this.sendable(result), deadline);
    })();
    this.active.set(call.id, entry);
    this.watchCancellations();
  }

  /**
   * A result as this Quartermaster takes it: one that predates coded results would refuse
   * the whole submission over the unknown field, so the code travels in the text instead —
   * the agent reads the same words; only the call log lacks the code.
   */
  private sendable(result: CallResult): CallResult {
    if ("content" in result) {
      if (this.lastRegistration?.resultContent) return result;
      // Only one output text gets through to this server: the texts go, the rest is named.
      const texts = result.content.map((b) =>
        b.type === "text" ? b.text : `[${b.type} not sent: this Quartermaster takes text results only]`,
      );
      return { output: texts.join("\n\n") };
    }
    if (!("error" in result) || !result.code) return result;
    if (this.lastRegistration?.resultCodes?.includes(result.code)) return result;
    return { error: `${result.code}: ${result.error}` };
  }

  /**
   * Keeps one long poll open while calls run, asking Quartermaster whether their agents
   * cancelled any (notifications/cancelled, or a hang-up, on whichever instance took it).
   * A new call restarts the poll so it is asked about too (once it has run WATCH_AFTER_MS);
   * a finished one needs no restart.
   */
  private watchCancellations(): void {
    if (this.watchUnsupported || this.stopped.signal.aborted || this.watchTimer) return;
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      this.refreshWatch();
    }, WATCH_AFTER_MS);
  }

  private refreshWatch(): void {
    // Closing: the watch open now keeps serving the calls it names; no new request starts.
    if (this.watchUnsupported || this.closing.signal.aborted || !this.active.size) return;
    const poll = this.watchPoll;
    if (poll && [...this.active.keys()].some((id) => !poll.ids.has(id))) poll.controller.abort();
    this.watcher ??= this.watchLoop()
      .catch((error: unknown) =>
        this.log.error(`Watching for cancellations stopped: ${(error as Error)?.stack ?? error}`),
      )
      .finally(() => {
        this.watcher = null;
      });
  }

  private async watchLoop(): Promise<void> {
    // After the rest of this collection's calls have started, so one poll asks about them all.
    await Promise.resolve();
    const backoff = new Backoff(this.backoffOptions);
    while (this.active.size && !this.stopped.signal.aborted && !this.watchUnsupported) {
      const ids = [...this.active.keys()].slice(0, TOOL_HOST_LIMITS.TOOL_HOST_WATCHED_CALLS.value);
      const controller = new AbortController();
      const signal = AbortSignal.any([controller.signal, this.stopped.signal]);
      this.watchPoll = { controller, ids: new Set(ids) };
      try {
        const cancelled = await this.api.cancelled(ids, COLLECT_WAIT_SECONDS, signal);
        backoff.reset();
        for (const id of cancelled) this.cancel(id);
      } catch (error) {
        if (controller.signal.aborted || this.stopped.signal.aborted) continue;
        if (error instanceof ToolHostError && error.status === 404) {
          this.watchUnsupported = true;
          this.log.info("This Quartermaster does not tell hosts of cancelled calls; handlers run to their deadline.");
          break;
        }
        if (error instanceof AuthenticationError) break;
        await sleep(backoff.next(), this.stopped.signal);
      } finally {
        this.watchPoll = null;
      }
    }
  }

  /** The agent gave up on this call: its handler's signal aborts now and its result is not sent. */
  private cancel(id: string): void {
    const call = this.active.get(id);
    if (!call || call.abandoned) return;
    call.abandoned = true;
    this.progress.end(id);
    call.controller.abort(new Error("The agent cancelled this call."));
    this.log.info(`Call ${id} to ${call.tool} was cancelled by its agent; its handler's signal is aborted.`, {
      callId: id,
      tool: call.tool,
    });
    // Its worker is free once the handler returns (a handler that ignores its signal keeps it).
    void call.promise.finally(() => {
      this.active.delete(id);
      this.wakeCollector();
    });
  }
}

/** What to change so a Tool is offered, naming what only this host may see (its reserved argument names). */
function fixFor(tool: DefinedTool | undefined): string {
  const reserved = tool ? reservedArguments(tool.definition) : [];
  return reserved.length
    ? ` Rename ${reserved.map((n) => `"${n}"`).join(", ")} in this Tool's input schema (names starting with "__" are reserved) and restart the host.`
    : " Change the Tool's input schema and restart the host.";
}
