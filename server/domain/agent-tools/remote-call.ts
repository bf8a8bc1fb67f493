/**
 * Calls one Tool on an MCP Connection's server over a pooled session (source-sessions.ts):
 * the same transport, network policy and remote-response limit as a catalog check, one
 * request per call once a session is open.
 */

import { type Client, ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { fmt, fmtBytes } from "@/universal/format";
import { DomainError, type ToolCallFailure } from "../../errors";
import { LIMITS } from "../../limits";
import { AS_SENT, type CatalogTransport, ResponseTooLarge } from "../catalog/catalog-transport";
import { AddressBlocked, causeChain, unreachable } from "../catalog/guarded-dispatcher";
import { withSourceSession } from "../catalog/source-sessions";
import { remoteTaskRequest, runRemoteTask, speaksTaskExtension, startRemoteTask, type TaskState } from "./remote-task";

/** Where a Source is and how to reach it, as the call path reads it. */
export interface RemoteSource {
  sourceId: string;
  url: string;
  headers: Record<string, string>;
  allowLinkLocal: boolean;
  /** The revision last recorded for the Source (connects without a probe). */
  protocolVersion?: string | null;
  /** Hears a newly negotiated revision, to record it. */
  onVersion?: (version: string) => void;
  signal?: AbortSignal;
  /** The Tool Call time limit; overridable for tests of the timeout itself. */
  timeoutMs?: number;
}

/**
 * `exchange` over the Source's pooled session, within the Tool Call time limit (`left()` is
 * what remains of it after connecting); failures come back as the ToolCallFailure an agent reads.
 */
async function onSource<T>(
  options: RemoteSource,
  exchange: (client: Client, transport: CatalogTransport, left: () => number) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? LIMITS.TOOL_CALL_MS.value;
  const started = Date.now();
  try {
    return await withSourceSession(
      {
        sourceId: options.sourceId,
        url: options.url,
        headers: options.headers,
        allowLinkLocal: options.allowLinkLocal,
        protocolVersion: options.protocolVersion,
        responseBytes: LIMITS.REMOTE_RESPONSE_BYTES.value,
      },
      (client, transport) => exchange(client, transport, () => Math.max(1, timeoutMs - (Date.now() - started))),
      { timeoutMs, onVersion: options.onVersion },
    );
  } catch (error) {
    const timedOut =
      !options.signal?.aborted &&
      (Date.now() - started >= timeoutMs - 50 ||
        causeChain(error).some((e) => e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout));
    throw toFailure(error, timedOut, timeoutMs);
  }
}

export async function callRemoteTool(
  options: RemoteSource & {
    nativeName: string;
    arguments: Record<string, unknown>;
    /** The Tool runs only as a task: start one and wait for it (remote-task.ts). */
    asTask?: boolean;
  },
): Promise<Record<string, unknown>> {
  return onSource(options, async (client, transport, left) => {
    // A Source with the 2026-07-28 tasks extension decides per call whether to answer with a
    // task: the call declares it and waits for the task, as one that requires a task does.
    if (options.asTask || speaksTaskExtension(client))
      return runRemoteTask(client, transport, options, { deadline: Date.now() + left(), signal: options.signal });
    const answer = await client.request(
      { method: "tools/call", params: { name: options.nativeName, arguments: options.arguments } },
      AS_SENT,
      // What is left of the call's time after connecting, if a session had to be opened.
      { signal: options.signal, timeout: left() },
    );
    // As the Source sent it: the result's limits are checked by acceptToolResult, with
    // reasons the agent can act on, rather than by the SDK's schema.
    return transport.rawResult(answer.content) ?? answer;
  });
}

/** An agent's task-augmented call, started as a task on the Source (or answered at once). */
export function startRemoteToolTask(
  options: RemoteSource & { nativeName: string; arguments: Record<string, unknown>; ttlMs: number },
): Promise<{ task: TaskState } | { result: Record<string, unknown> }> {
  return onSource(options, (client, transport, left) =>
    startRemoteTask(client, transport, options, { ttlMs: options.ttlMs, timeout: left(), signal: options.signal }),
  );
}

/** tasks/get, tasks/result or tasks/cancel for a task on the Source, its answer as sent. */
export function requestRemoteTask(
  options: RemoteSource & { method: "tasks/get" | "tasks/result" | "tasks/cancel"; taskId: string },
): Promise<Record<string, unknown>> {
  return onSource(options, (client, _transport, left) =>
    remoteTaskRequest(client, options.method, options.taskId, { signal: options.signal, left }),
  );
}

function toFailure(error: unknown, timedOut: boolean, timeoutMs: number): ToolCallFailure {
  for (const e of causeChain(error)) {
    if (e instanceof ResponseTooLarge) {
      const limit = LIMITS.REMOTE_RESPONSE_BYTES.value;
      return new DomainError(
        "REMOTE_RESPONSE_TOO_LARGE",
        `The Source's answer passed ${fmtBytes(limit)} (received ${fmtBytes(e.received)} before stopping); a remote response may be at most ${fmtBytes(limit)}.`,
        { measured: e.received, limit, unit: "bytes" },
      );
    }
    if (e instanceof AddressBlocked)
      return new DomainError(
        "SOURCE_ADDRESS_BLOCKED",
        `The Source's address ${e.address} is ${e.reason}; an admin must allow link-local addresses first.`,
      );
  }
  if (timedOut)
    return new DomainError(
      "TOOL_CALL_TIMEOUT",
      `The Source did not answer within ${fmt(timeoutMs / 1000)} s; one Tool Call may take at most that long.`,
      { limit: timeoutMs, unit: "ms" },
    );
  if (error instanceof ProtocolError)
    return new DomainError(
      "SOURCE_CALL_ERROR",
      `The Source refused the call (JSON-RPC ${error.code}): ${sourceMessage(error.message).slice(0, 500)}`,
      { jsonRpcCode: error.code },
    );
  const http = causeChain(error).find((e) => e instanceof SdkHttpError) as SdkHttpError | undefined;
  if (http)
    return new DomainError("SOURCE_UNREACHABLE", `The Source answered HTTP ${http.status}.`, {
      status: http.status,
    });
  return new DomainError("SOURCE_UNREACHABLE", unreachable(error, "The Source could not be reached"));
}

/**
 * The Source's own words: the SDK prefixes "MCP error <code>: " to a JSON-RPC error's message,
 * and a Source that is itself a proxy often sent one already; the code is stated once, by us.
 */
export function sourceMessage(message: string): string {
  return message.replace(/^(\s*MCP error -?\d+:\s*)+/i, "").trim() || "(no message)";
}
