/**
 * The SDK Tool Host API (v1) over HTTP: one method per endpoint, every failure turned into
 * a ToolHostError that says whether trying again may help. See docs/tool-hosts.md.
 */
import { REGISTRATION_FAILURE_STATUS } from "./contract/tool-checks.ts";
import { AuthenticationError, RegistrationError, type RegistrationErrorCode, ToolHostError } from "./errors.ts";
import { SDK_VERSION } from "./version.ts";

export interface RegistrationAnswer {
  status: "registered";
  /** The SDK Tool Host's Source id (servers before this field: absent). */
  sourceId?: string;
  /** After this long without a heartbeat the host's Tools are withdrawn (servers before this field: absent). */
  heartbeatTimeoutSeconds?: number;
  tools: number;
  added: number;
  removed: number;
  changed: number;
  /** Tools kept in the catalog but offered to no model, and why (servers before this field: absent). */
  incompatible?: { tool: string; state: string; reason: string | null }[];
  /** Codes a failed result may carry (servers before this field take none: the code goes in the text). */
  resultCodes?: string[];
  /** Content block types a result may hold (servers before this field: one output text only). */
  resultContent?: string[];
  /** Calls' progress may be reported, within these (servers before this field take none). */
  progress?: ProgressLimits;
  /** A result submission may collect the next calls too (servers before this field: a collection of its own). */
  collectWithResults?: boolean;
}

export interface ProgressLimits {
  /** Longest message, in UTF-16 units. */
  messageChars: number;
  /** Shortest time between two reports of one call. */
  intervalMs: number;
  /** Most reports in one request. */
  reportsPerRequest: number;
}

export interface ProgressAnswer {
  accepted: string[];
  /** Calls whose agent did not ask for progress. */
  unheard: string[];
  refused: { id: string; code: string; message: string }[];
  /** Calls no longer running here (answered, cancelled, past their deadline). */
  unknown: string[];
}

export interface HeartbeatAnswer {
  status: "ok";
  silentAfter: string;
  heartbeatTimeoutSeconds: number;
}

export interface CollectedCall {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  deadline: string;
}

export interface GoodbyeAnswer {
  /** The host's Tools were withdrawn: no other process of it is serving. */
  withdrawn: boolean;
  /** Other processes serving with the same token, which keep the Tools offered. */
  otherProcesses: number;
}

export interface SubmissionOutcome {
  delivered: string[];
  refused: { id: string; code: string; message: string }[];
  unknown: string[];
}

/** Statuses worth another try: Quartermaster restarting, overloaded, or behind a proxy that lost it. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Longest a request other than a collection may take before it counts as a lost connection. */
const REQUEST_TIMEOUT_MS = 30_000;

export class HostApi {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(
    url: string | URL,
    token: string,
    private readonly fetchImpl: typeof fetch = fetch,
    /** This process's id: Quartermaster tells replicas with one token apart by it (a goodbye withdraws only the last). */
    processId?: string,
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      throw new TypeError(`url: Quartermaster's address must be http(s)://…, not ${parsed.protocol}`);
    this.base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}/api/v1/tool-hosts`;
    this.headers = {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      "user-agent": `quartermaster-tool-host/${SDK_VERSION} node/${process.versions.node}`,
      ...(processId ? { "qm-host-process": processId } : {}),
    };
  }

  register(body: string, signal?: AbortSignal): Promise<RegistrationAnswer> {
    return this.request("PUT", "/registration", { body, signal });
  }

  heartbeat(signal?: AbortSignal): Promise<HeartbeatAnswer> {
    return this.request("POST", "/heartbeat", { signal });
  }

  async collect(waitSeconds: number, max: number, signal?: AbortSignal): Promise<CollectedCall[]> {
    const answer = await this.request<{ calls: CollectedCall[] }>(
      "POST",
      `/calls/next?wait=${waitSeconds}&max=${max}`,
      {
        signal,
        timeoutMs: waitSeconds * 1000 + REQUEST_TIMEOUT_MS,
      },
    );
    return answerable(answer?.calls);
  }

  /**
   * Submits results (`body`, as submit() takes it) and then collects the next calls, as
   * collect() would, in one request: only against a server whose registration answer says
   * `collectWithResults`.
   */
  async submitAndCollect(
    body: string,
    waitSeconds: number,
    max: number,
    signal?: AbortSignal,
  ): Promise<{ outcome: SubmissionOutcome; calls: CollectedCall[] }> {
    const answer = await this.request<SubmissionOutcome & { calls?: CollectedCall[] }>(
      "POST",
      `/calls/results?collect=true&wait=${waitSeconds}&max=${max}`,
      { body, signal, timeoutMs: waitSeconds * 1000 + REQUEST_TIMEOUT_MS },
    );
    const { calls, ...outcome } = answer ?? ({} as SubmissionOutcome);
    return { outcome, calls: answerable(calls) };
  }

  /** Waits up to `waitSeconds` for any of these calls to be cancelled by its agent; answers with those that were. */
  async cancelled(ids: string[], waitSeconds: number, signal?: AbortSignal): Promise<string[]> {
    const answer = await this.request<{ cancelled?: unknown }>("POST", `/calls/cancelled?wait=${waitSeconds}`, {
      body: JSON.stringify({ ids }),
      signal,
      timeoutMs: waitSeconds * 1000 + REQUEST_TIMEOUT_MS,
    });
    return Array.isArray(answer?.cancelled)
      ? answer.cancelled.filter((id): id is string => typeof id === "string")
      : [];
  }

  async progress(
    reports: { id: string; progress: number; total?: number; message?: string }[],
  ): Promise<ProgressAnswer> {
    const answer = await this.request<Partial<ProgressAnswer>>("POST", "/calls/progress", {
      body: JSON.stringify({ reports }),
    });
    const ids = (list: unknown) =>
      Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : [];
    return {
      accepted: ids(answer?.accepted),
      unheard: ids(answer?.unheard),
      refused: Array.isArray(answer?.refused) ? answer.refused : [],
      unknown: ids(answer?.unknown),
    };
  }

  goodbye(timeoutMs: number): Promise<GoodbyeAnswer> {
    return this.request("POST", "/goodbye", { timeoutMs });
  }

  submit(body: string, signal?: AbortSignal): Promise<SubmissionOutcome> {
    return this.request("POST", "/calls/results", { body, signal });
  }

  private async request<T>(
    method: string,
    path: string,
    options: { body?: string; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<T> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers: options.body === undefined ? this.headers : { ...this.headers, "content-type": "application/json" },
        body: options.body,
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted)
        throw new ToolHostError("ABORTED", "The request was abandoned.", {}, undefined, false);
      const reason = timeout.aborted ? "did not answer in time" : describeNetworkError(error);
      throw new ToolHostError("UNREACHABLE", `Quartermaster at ${this.base} ${reason}.`, {}, undefined, true);
    }
    const json = parseJson(text);
    if (response.ok) {
      if (json === undefined)
        throw new ToolHostError(
          `HTTP_${response.status}`,
          `Quartermaster answered ${method} ${path} with something that is not JSON; is ${this.base} its address?`,
          {},
          response.status,
          true,
        );
      return json as T;
    }
    throw errorFor(response.status, json, path, this.base);
  }
}

/** Only calls this SDK can answer: an id to answer to and a Tool to run. */
function answerable(calls: unknown): CollectedCall[] {
  return (Array.isArray(calls) ? calls : []).filter(
    (call): call is CollectedCall => typeof call?.id === "string" && typeof call.tool === "string",
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return `could not be reached (${cause?.code ?? cause?.message ?? (error as Error)?.message ?? "network error"})`;
}

/** Quartermaster's `{ code, message, details }` answer as the error a host can act on. */
function errorFor(status: number, json: unknown, path: string, base: string): ToolHostError {
  const body = (json ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
  const code = typeof body.code === "string" ? body.code : `HTTP_${status}`;
  const message =
    typeof body.message === "string" ? body.message : `Quartermaster answered HTTP ${status} to ${path} (${base}).`;
  const details = (body.details && typeof body.details === "object" ? body.details : {}) as Record<string, unknown>;
  if (status === 401) return new AuthenticationError(message);
  if (path === "/registration" && (code in REGISTRATION_FAILURE_STATUS || code === "SOURCE_PAUSED"))
    return new RegistrationError(code as RegistrationErrorCode, message, details, status, false);
  return new ToolHostError(code, message, details, status, RETRYABLE_STATUS.has(status));
}
