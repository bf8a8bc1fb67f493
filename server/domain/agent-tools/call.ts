/**
 * tools/call at /mcp for a catalog Tool: the agent names it by its model-facing name; the
 * call is checked against the Tool Call limits, proxied to the Tool's Source under its
 * native name, and its result is accepted only within the Tool Result limits. A call
 * that fails on the Source's side comes back as a Tool Result marked isError, with a
 * code and a reason, so the model can act on it.
 */

import { invalidArgumentsMessage } from "@/sdk/src/contract/argument-problems";
import { fmt } from "@/universal/format";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError, isToolCallFailure, type ToolCallFailure } from "../../errors";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { annotateSpan } from "../../observability/tracing";
import { judgeApproval } from "../call-policies/approval";
import { type ClientConfirmation, judgeConfirmation } from "../call-policies/confirmation";
import { isDestructive, loadCallPolicyDefaults } from "../call-policies/defaults";
import { effectivePolicy } from "../call-policies/policy";
import { isModernRevision } from "../catalog/protocol-revision";
import { measureSchemas } from "../catalog/schema-measure";
import { heldToolsWhere } from "../identities/holdings";
import { openHeaders } from "../sources/headers";
import { loadUrlPolicy } from "../sources/network-policy";
import { storableCopy } from "../storable-text";
import { checkToolArguments } from "./argument-check";
import { awaitingReview } from "./awaiting-review";
import { callHostTool } from "./host-calls";
import type { ProgressUpdate } from "./host-progress";
import { servedIdentity } from "./identity";
import { whyNotHeld } from "./not-held";
import { readableTime } from "./readable-time";
import { callRemoteTool, startRemoteToolTask } from "./remote-call";
import { cancellableByAgent } from "./request-cancellation";
import { acceptToolResult, answered, type Dispatched, failedResult } from "./result";
import { routed } from "./route-cache";
import { withProxiedUris } from "./source-surface";
import { approvalTask, startedTask, TASK_TTL_MS } from "./task-started";

export async function callOfferedTool(
  actor: Actor,
  input: {
    name: string;
    arguments?: unknown;
    signal?: AbortSignal;
    /** Who asked (host-calls.ts requestKey): a cancellation sent apart from the request finds its call by it. */
    requestKey?: string;
    /** How the transport can reach the agent's user, for Tools under `confirm`. */
    confirmation?: ClientConfirmation;
    /** The agent asked for progress: an SDK Tool Host's reports are sent here (host-progress.ts). */
    onProgress?: (update: ProgressUpdate) => Promise<void> | void;
    /**
     * The agent's client takes a task for an answer: `requested` (2025-11-25 task
     * augmentation: a task or a refusal) or offered (the 2026-07-28 extension: a task where
     * the Tool runs as one, or the call waits for an approver; else the result).
     */
    task?: { ttlMs?: number; requested: boolean };
    /**
     * An approval's task took this call's approval already (agent-tasks.ts): the definition the
     * approver saw. It runs without asking again while the Tool still has that definition.
     */
    approvedDefinition?: string;
  },
): Promise<Dispatched> {
  const identity = await routed(`identity\0${actor.kind === "agent" ? actor.identityId : ""}`, () =>
    servedIdentity(actor),
  );
  // A name holding text no database stores names no Tool: not found, without asking the database.
  const storable = storableCopy(input.name) === input.name;
  const tool = !storable
    ? null
    : await routed(`tool\0${identity.id}\0${input.name}`, async () => {
        const db = await getDb();
        return db.tool.findFirst({
          where: { ...heldToolsWhere(identity.id), modelFacingName: input.name },
          select: {
            nativeName: true,
            title: true,
            definitionHash: true,
            callPolicy: true,
            callTimeoutSeconds: true,
            source: {
              select: {
                id: true,
                name: true,
                callPolicy: true,
                kind: true,
                url: true,
                encryptedHeaders: true,
                protocolVersion: true,
              },
            },
          },
        });
      });
  if (!tool) {
    const held = storable ? await awaitingReview(identity.id, input.name) : null;
    if (held) return failedResult(held);
    const lost = storable ? await whyNotHeld(identity.id, input.name) : null;
    if (lost)
      return failedResult(
        new DomainError("TOOL_NOT_HELD", lost.message, {
          reason: lost.reason,
          at: lost.at.toISOString(),
          source: lost.source,
        }),
      );
    throw new DomainError(
      "NOT_FOUND",
      `No Tool named "${input.name}" is offered to this Agent Identity. Call find_tools with what you want to do to find the Tool that does it and its exact name, or tools/list for the Tools listed now.`,
      {
        field: "name",
      },
    );
  }

  annotateSpan({ "qm.source.id": tool.source.id, "qm.source.kind": tool.source.kind });
  const remote = tool.source.kind !== "sdk_tool_host" && !!tool.source.url;
  let taskSupport = remote ? await taskSupportOf(tool.definitionHash) : "forbidden";
  // A 2026-07-28 Tool says nothing of tasks: with the tasks extension the Source decides per
  // call (remote-task.ts), so a call that takes a task is offered to it (decision 0100).
  const modernSource = !!tool.source.protocolVersion && isModernRevision(tool.source.protocolVersion);
  if (remote && modernSource && taskSupport === "forbidden") taskSupport = "optional";
  // As the 2025-11-25 tasks utility says: -32601 for a task-augmented call of a Tool that forbids it.
  if (input.task?.requested && taskSupport === "forbidden")
    throw new DomainError(
      "TASK_NOT_SUPPORTED",
      `${input.name} does not run as a task (its definition allows no task augmentation); call it without "task".`,
    );
  const started = performance.now();
  let dispatched: Dispatched;
  try {
    // Nothing reaches the Source until the arguments fit the limits and the Tool's schema.
    const args = checkArguments(input.arguments);
    const problems = await checkToolArguments(tool.definitionHash, () => inputSchemaOf(tool.definitionHash), args);
    if (problems) throw new DomainError("INVALID_ARGUMENTS", invalidArgumentsMessage(problems));
    const held = await gate(actor, identity, input, tool, args);
    if (held) return held;
    if (!remote || !tool.source.url) {
      dispatched = answered(
        await callHostTool({
          sourceId: tool.source.id,
          nativeName: tool.nativeName,
          arguments: args,
          signal: input.signal,
          limitMs: (tool.callTimeoutSeconds ?? LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS.value) * 1000,
          requestKey: input.requestKey,
          onProgress: input.onProgress,
        }),
      );
    } else {
      const { allowLinkLocal } = await routed("policy", loadUrlPolicy);
      const sourceId = tool.source.id;
      const target = {
        sourceId,
        protocolVersion: tool.source.protocolVersion,
        onVersion: (protocolVersion: string) => void recordProtocolVersion(sourceId, protocolVersion),
        url: tool.source.url,
        headers: openSourceHeaders(tool.source),
        allowLinkLocal,
        nativeName: tool.nativeName,
        arguments: args,
        signal: input.signal,
      };
      let raw: Record<string, unknown>;
      if (input.task && taskSupport !== "forbidden") {
        const ttlMs = Math.min(input.task.ttlMs ?? TASK_TTL_MS(), TASK_TTL_MS());
        // Cancellable like a plain call: on a 2026-07-28 Source any call the agent could take as a task comes here.
        const started = await cancellableByAgent(
          { requestKey: input.requestKey, timeoutMs: LIMITS.TOOL_CALL_MS.value, signal: input.signal },
          (signal) => startRemoteToolTask({ ...target, signal, ttlMs }),
        );
        if ("task" in started) return startedTask(identity.id, input.name, sourceId, started.task);
        raw = started.result;
      }
      // A notifications/cancelled POST on any instance reaches this call by its request key.
      else
        raw = await cancellableByAgent(
          { requestKey: input.requestKey, timeoutMs: LIMITS.TOOL_CALL_MS.value, signal: input.signal },
          (signal) => callRemoteTool({ ...target, signal, asTask: taskSupport === "required" }),
        );
      const accepted = acceptToolResult(raw);
      // Links to the Source's own resources are readable at /mcp only under their proxied URIs.
      dispatched = answered(
        Array.isArray(accepted.content)
          ? { ...accepted, content: withProxiedUris(sourceId, accepted.content) }
          : accepted,
      );
    }
  } catch (error) {
    if (!isToolCallFailure(error)) throw error;
    dispatched = failedResult(await withSourceState(error, tool.source));
  }
  // Per call, like a request: debug, so the terminal stays quiet (the call log keeps the record).
  log.debug(
    {
      identityId: identity.id,
      sourceId: tool.source.id,
      tool: input.name,
      ms: Math.round(performance.now() - started),
      failure: dispatched.outcome.failureCode ?? undefined,
    },
    "tool call",
  );
  return dispatched;
}

/**
 * The call's policy (docs/decisions/0075): under `confirm` it runs only on an accepted,
 * fitting, unused confirmation; otherwise this answers what the agent gets instead.
 */
async function gate(
  actor: Actor,
  identity: { id: string; name: string },
  input: {
    name: string;
    confirmation?: ClientConfirmation;
    task?: { requested: boolean };
    approvedDefinition?: string;
  },
  tool: {
    title: string | null;
    definitionHash: string;
    callPolicy: "none" | "confirm" | "approve" | null;
    source: { id: string; name: string; callPolicy: "none" | "confirm" | "approve" };
  },
  args: Record<string, unknown>,
): Promise<Dispatched | null> {
  // The default rule needs the definition's annotations: read only when it could apply.
  const defaults = await routed("call-policy-defaults", loadCallPolicyDefaults);
  const rule =
    defaults.confirmDestructive && !tool.callPolicy && tool.source.callPolicy === "none"
      ? {
          confirmDestructive: true,
          destructive: isDestructive(
            await routed(`definition\0${tool.definitionHash}`, () => definitionOf(tool.definitionHash)),
          ),
        }
      : undefined;
  const { policy } = effectivePolicy(tool, tool.source, rule);
  if (policy === "none") return null;
  if (policy === "approve" && input.approvedDefinition === tool.definitionHash) return null;
  if (policy === "approve") {
    const judged = await judgeApproval({
      identityId: identity.id,
      identityName: identity.name,
      tokenId: actor.kind === "agent" ? actor.tokenId : null,
      toolName: input.name,
      sourceId: tool.source.id,
      sourceName: tool.source.name,
      definitionHash: tool.definitionHash,
      arguments: args,
    });
    if (judged.verdict === "run") return null;
    // A client that takes tasks polls the approval as one instead of retrying the call.
    const approvalId = judged.error.details?.approvalId;
    if (input.task && judged.error.code === "APPROVAL_PENDING" && typeof approvalId === "string")
      return approvalTask(identity.id, input.name, approvalId, judged.error.message);
    return failedResult(judged.error as ToolCallFailure);
  }
  const call = {
    toolName: input.name,
    title: tool.title,
    definitionHash: tool.definitionHash,
    sourceName: tool.source.name,
    identityName: identity.name,
    arguments: args,
  };
  const judged = await judgeConfirmation(call, input.confirmation);
  if (judged.verdict === "run") return null;
  if (judged.verdict === "refuse") return failedResult(judged.error as ToolCallFailure);
  return {
    result: { content: [{ type: "text", text: judged.request.message }] },
    outcome: { outcome: "failed", failureCode: "CONFIRMATION_REQUIRED" },
    confirm: judged.request,
  };
}

/** The revision a new session negotiated, for the console and the next instance's first call. */
export async function recordProtocolVersion(sourceId: string, protocolVersion: string) {
  try {
    const db = await getDb();
    await db.source.updateMany({ where: { id: sourceId }, data: { protocolVersion } });
  } catch (error) {
    log.warn({ err: error, sourceId }, "could not record a Source's protocol revision");
  }
}

export function openSourceHeaders(source: { id: string; encryptedHeaders: string | null }): Record<string, string> {
  return openHeaders(source, "SOURCE_UNREACHABLE");
}

type TaskSupport = "required" | "optional" | "forbidden";

/** What a definition says of running its Tool as a task; definitions never change under their hash. */
async function taskSupportOf(hash: string): Promise<TaskSupport> {
  const known = TASK_SUPPORT.get(hash);
  if (known !== undefined) return known;
  const definition = (await definitionOf(hash)) as { execution?: { taskSupport?: unknown } } | undefined;
  const said = definition?.execution?.taskSupport;
  const support: TaskSupport = said === "required" || said === "optional" ? said : "forbidden";
  if (TASK_SUPPORT.size >= 50_000) TASK_SUPPORT.clear();
  TASK_SUPPORT.set(hash, support);
  return support;
}
const TASK_SUPPORT = new Map<string, TaskSupport>();

async function definitionOf(hash: string): Promise<unknown> {
  const db = await getDb();
  const stored = await db.toolDefinition.findUnique({ where: { hash }, select: { definition: true } });
  return stored ? JSON.parse(stored.definition) : undefined;
}

async function inputSchemaOf(hash: string): Promise<unknown> {
  return ((await definitionOf(hash)) as { inputSchema?: unknown } | undefined)?.inputSchema;
}

/**
 * A call that failed on the Source's side says so when the Source's catalog checks are
 * failing too: the model (and whoever reads its log) then knows it is the Source, not the call.
 */
async function withSourceState(
  failure: ToolCallFailure,
  source: { id: string; name: string },
): Promise<ToolCallFailure> {
  if (failure.code === "INVALID_ARGUMENTS") return failure;
  // Read now, not from the cached route: a check may have failed since the route was read.
  const db = await getDb();
  const state = await db.source.findUnique({
    where: { id: source.id },
    select: { failingSince: true, lastFailureCode: true, nextCheckAt: true, kind: true },
  });
  if (!state?.failingSince) return failure;
  const now = new Date();
  const next =
    state.kind === "mcp_connection"
      ? state.nextCheckAt && state.nextCheckAt > now
        ? `after its next check, due ${readableTime(state.nextCheckAt, now)}`
        : "after its next check, due now"
      : "once its host registers again";
  return new DomainError(
    failure.code,
    `${failure.message} Its Source "${source.name}" has failed its catalog checks since ${readableTime(state.failingSince, now)}${state.lastFailureCode ? ` (${state.lastFailureCode})` : ""}. Use another Tool for now, or retry this one ${next}.`,
    {
      ...failure.details,
      sourceFailingSince: state.failingSince.toISOString(),
      ...(state.nextCheckAt ? { sourceNextCheckAt: state.nextCheckAt.toISOString() } : {}),
    },
  );
}

function checkArguments(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new DomainError("INVALID_ARGUMENTS", "arguments: must be an object of named arguments");
  const count = Object.keys(raw).length;
  const limit = LIMITS.CALL_TOP_LEVEL_ARGUMENTS.value;
  if (count > limit)
    throw new DomainError(
      "INVALID_ARGUMENTS",
      `arguments: ${fmt(count)} top-level properties; a Tool Call may have at most ${fmt(limit)}.`,
      { measured: count, limit },
    );
  // Checked before the arguments are serialized for the Source (serializing recurses).
  const maxDepth = LIMITS.JSON_DEPTH.value;
  const depth = measureSchemas([raw], { depth: maxDepth, nodes: Number.POSITIVE_INFINITY });
  if (depth.exceeded)
    throw new DomainError(
      "INVALID_ARGUMENTS",
      `arguments: nested more than ${fmt(maxDepth)} levels deep; Tool Call arguments may nest at most ${fmt(maxDepth)}.`,
      { measured: depth.depth, limit: maxDepth },
    );
  return raw as Record<string, unknown>;
}
