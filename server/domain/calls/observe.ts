/**
 * The one wrapper around every tools/call at /mcp, catalog Tool or built-in: the call's
 * span, its rate limits, its call log row and its metrics. The MCP adapter calls
 * `observeToolCall` around its dispatch and nothing else changes, so the way a call is
 * made (proxied, pooled, built-in) stays apart from how it is watched.
 */

import { randomUUID } from "node:crypto";
import type { Actor } from "../../actor";
import { DomainError } from "../../errors";
import { metrics } from "../../observability/metrics";
import { withSpan } from "../../observability/tracing";
import { BUILT_IN_TOOL_NAMES } from "../agent-tools/built-ins";
import { type Dispatched, failedResult, type Outcome, type ToolResult } from "../agent-tools/result";
import { admitCall, type Refusal } from "../rate-limits/admit";
import { outcomeOfError } from "./outcome";
import { recordCall } from "./recorder";

/** A call a limit refused, counted in the metrics, as the error its caller answers. */
function rateLimited(refusal: Refusal): DomainError<"RATE_LIMITED"> {
  metrics.rateLimited.inc({ subject: refusal.subject, limit: refusal.kind });
  return new DomainError("RATE_LIMITED", refusal.message, {
    subject: refusal.subject,
    limit: refusal.limit,
    kind: refusal.kind,
    retryAfterMs: refusal.retryAfterMs,
    retryAt: new Date(Date.now() + refusal.retryAfterMs).toISOString(),
  });
}

/**
 * What a read of a held Source's resource, a get of its prompt, or a poll of a task
 * (tasks/get, tasks/result, tasks/cancel, tasks/update) is logged and traced as.
 */
export interface SourceRequest {
  kind: "resource" | "prompt" | "task";
  /** The name the agent sent: the proxied URI, the namespaced prompt name, or the task method. */
  name: string;
  arguments?: unknown;
}

const SPAN_OF = { resource: "mcp.resource_read", prompt: "mcp.prompt_get", task: "mcp.task_poll" } as const;

/**
 * A URI as its span names it: a Source's template may put what the agent searches for in
 * the query (`search://docs{?q}`), which must not reach the trace collector.
 */
function withoutQuery(uri: string): string {
  const cut = uri.search(/[?#]/);
  return cut === -1 ? uri : uri.slice(0, cut);
}

/**
 * resources/read and prompts/get on a held Source, watched like a Tool Call: its own span,
 * the identity's rate limits (a per-Tool limit names a Tool, so none applies), a call log
 * row (tool name: the URI or prompt name the agent sent; the Source and its own name beside
 * it) and the call metrics. A refusal throws, as the request answers an error, not a result.
 */
export async function observeSourceRequest<T>(
  actor: Actor,
  request: SourceRequest,
  /** `about` names the Source as soon as it is known, so a failure on it is logged against it. */
  dispatch: (about: (source: { id: string; name: string; nativeName: string }) => void) => Promise<T>,
): Promise<T> {
  const startedAt = new Date();
  const t0 = performance.now();
  const identityId = actor.kind === "agent" ? actor.identityId : null;
  return withSpan(
    SPAN_OF[request.kind],
    {
      attributes:
        request.kind === "resource"
          ? { "mcp.resource.uri": withoutQuery(request.name) }
          : request.kind === "prompt"
            ? { "mcp.prompt.name": request.name }
            : { "mcp.method.name": request.name },
    },
    async (span) => {
      let outcome: Outcome = { outcome: "failed", failureCode: "INTERNAL" };
      let result: unknown;
      let source: { id: string; name: string; nativeName: string } | undefined;
      if (identityId) span.set({ "qm.identity.id": identityId });
      try {
        const admission = identityId
          ? await admitCall({
              identityId,
              toolName: request.name,
              builtIn: true,
              perMinuteOnly: request.kind === "task",
            })
          : ({ ok: true, release: async () => {} } as const);
        if (!admission.ok) throw rateLimited(admission.refusal);
        try {
          result = await dispatch((s) => {
            source = s;
            if (request.kind === "task") span.set({ "qm.task.tool": s.nativeName });
          });
          outcome = { outcome: "ok", failureCode: null };
          return result as T;
        } finally {
          await admission.release();
        }
      } catch (error) {
        outcome = outcomeOfError(error);
        throw error;
      } finally {
        const durationMs = performance.now() - t0;
        if (source) span.set({ "qm.source.id": source.id });
        span.set({
          "qm.call.outcome": outcome.outcome,
          ...(outcome.failureCode ? { "qm.call.failure_code": outcome.failureCode } : {}),
        });
        if (outcome.outcome !== "ok") span.fail(outcome.failureCode ?? "failed");
        const labels = { kind: request.kind, outcome: outcome.outcome };
        metrics.toolCalls.inc({ ...labels, code: outcome.failureCode ?? "" });
        metrics.toolCallSeconds.observe(labels, durationMs / 1000);
        if (identityId)
          recordCall({
            startedAt,
            durationMs: Math.round(durationMs),
            identityId,
            tokenId: actor.kind === "agent" ? actor.tokenId : null,
            toolName: request.name,
            builtIn: false,
            source,
            outcome: outcome.outcome,
            failureCode: outcome.failureCode,
            arguments: request.arguments ?? {},
            result,
          });
      }
    },
  );
}

/**
 * Runs `dispatch` under the call's rate limits and watch; answers what it dispatched.
 * `dispatch` is handed the call log id the call will be recorded under.
 */
export async function observeToolCall(
  actor: Actor,
  call: { name: string; arguments?: unknown },
  dispatch: (callId: string) => Promise<Dispatched>,
): Promise<Dispatched> {
  const callId = randomUUID();
  const builtIn = BUILT_IN_TOOL_NAMES.has(call.name);
  const kind = builtIn ? "built_in" : "catalog";
  const startedAt = new Date();
  const t0 = performance.now();
  return withSpan(
    "mcp.tool_call",
    { attributes: { "mcp.tool.name": call.name, "qm.tool.kind": kind } },
    async (span) => {
      let outcome: Outcome = { outcome: "failed", failureCode: "INTERNAL" };
      let result: ToolResult | undefined;
      const identityId = actor.kind === "agent" ? actor.identityId : null;
      if (identityId) span.set({ "qm.identity.id": identityId });
      try {
        const admission = identityId
          ? await admitCall({ identityId, toolName: call.name, builtIn })
          : ({ ok: true, release: async () => {} } as const);
        if (!admission.ok) {
          ({ result, outcome } = failedResult(rateLimited(admission.refusal)));
          return { result, outcome };
        }
        try {
          const dispatched = await dispatch(callId);
          ({ result, outcome } = dispatched);
          return dispatched;
        } finally {
          await admission.release();
        }
      } catch (error) {
        outcome = outcomeOfError(error);
        throw error;
      } finally {
        const durationMs = performance.now() - t0;
        span.set({
          "qm.call.outcome": outcome.outcome,
          ...(outcome.failureCode ? { "qm.call.failure_code": outcome.failureCode } : {}),
        });
        if (outcome.outcome !== "ok") span.fail(outcome.failureCode ?? "isError");
        const labels = { kind, outcome: outcome.outcome };
        metrics.toolCalls.inc({ ...labels, code: outcome.failureCode ?? "" });
        metrics.toolCallSeconds.observe(labels, durationMs / 1000);
        if (identityId)
          recordCall({
            id: callId,
            startedAt,
            durationMs: Math.round(durationMs),
            identityId,
            tokenId: actor.kind === "agent" ? actor.tokenId : null,
            toolName: call.name,
            builtIn,
            outcome: outcome.outcome,
            failureCode: outcome.failureCode,
            arguments: call.arguments ?? {},
            result,
          });
      }
    },
  );
}
