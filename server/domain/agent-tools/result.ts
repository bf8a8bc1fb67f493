/**
 * A Tool Result as /mcp passes it on, and the Tool Result limits it must fit: a result over
 * one of them reaches the agent as a failure of that call, naming the limit.
 */

import { characters, failedToolResult } from "@/sdk/src/contract/result-checks";
import { fmt, fmtBytes } from "@/universal/format";
import { DomainError, type ToolCallFailure } from "../../errors";
import { LIMITS } from "../../limits";
import type { ConfirmationRequest } from "../call-policies/confirmation";
import { measureSchemas } from "../catalog/schema-measure";

export interface ToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export { characters };

/** The Source's answer as a Tool Result, or a ToolCallFailure naming the limit it broke. */
export function acceptToolResult(raw: Record<string, unknown>): ToolResult {
  if (!Array.isArray(raw.content))
    throw new DomainError("TOOL_RESULT_MALFORMED", 'The Source\'s answer has no "content" list.');
  const result: ToolResult = { content: raw.content };
  if (raw.structuredContent && typeof raw.structuredContent === "object" && !Array.isArray(raw.structuredContent))
    result.structuredContent = raw.structuredContent as Record<string, unknown>;
  if (raw.isError === true) result.isError = true;

  // Before anything serializes it: serializing recurses, and a result nested some thousands
  // of levels would overflow the stack instead of failing as this one call.
  const maxDepth = LIMITS.JSON_DEPTH.value;
  const depth = measureSchemas([result], { depth: maxDepth, nodes: Number.POSITIVE_INFINITY });
  if (depth.exceeded)
    throw new DomainError(
      "TOOL_RESULT_TOO_DEEP",
      `The Tool Result is nested more than ${fmt(maxDepth)} levels deep; an accepted Tool Result may nest at most ${fmt(maxDepth)}.`,
      { measured: depth.depth, limit: maxDepth, unit: "levels" },
    );

  const bytes = Buffer.byteLength(JSON.stringify(result));
  const maxBytes = LIMITS.TOOL_RESULT_BYTES.value;
  if (bytes > maxBytes)
    throw new DomainError(
      "TOOL_RESULT_TOO_LARGE",
      `The Tool Result is ${fmtBytes(bytes)}; an accepted Tool Result may be at most ${fmtBytes(maxBytes)}.`,
      { measured: bytes, limit: maxBytes, unit: "bytes" },
    );
  const texts = result.content.filter(
    (block): block is { type: "text"; text: unknown } =>
      typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text",
  );
  const maxBlocks = LIMITS.TOOL_RESULT_TEXT_BLOCKS.value;
  if (texts.length > maxBlocks)
    throw new DomainError(
      "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS",
      `The Tool Result has ${fmt(texts.length)} text blocks; at most ${fmt(maxBlocks)} are accepted.`,
      { measured: texts.length, limit: maxBlocks, unit: "blocks" },
    );
  const maxChars = LIMITS.TOOL_RESULT_TEXT_BLOCK_CHARS.value;
  for (const [index, block] of texts.entries()) {
    if (typeof block.text !== "string")
      throw new DomainError("TOOL_RESULT_MALFORMED", `Text block ${index + 1} of the Tool Result has no text.`);
    // Cheap bound first: a string has at least as many UTF-16 units as characters.
    if (block.text.length > maxChars && characters(block.text) > maxChars) {
      const measured = characters(block.text);
      throw new DomainError(
        "TOOL_RESULT_TEXT_TOO_LONG",
        `Text block ${index + 1} of the Tool Result has ${fmt(measured)} characters; each may have at most ${fmt(maxChars)}.`,
        { measured, limit: maxChars, unit: "characters", block: index + 1 },
      );
    }
  }
  return result;
}

/**
 * How a Tool Call ended, as the call log and the metrics count it: ok, a Tool Result the
 * Tool itself marked isError (the Tool's answer, not a failure of the call), or failed with
 * the code Quartermaster answered with.
 */
export type CallOutcome = "ok" | "is_error" | "failed";

export interface Outcome {
  outcome: CallOutcome;
  failureCode: string | null;
}

/**
 * A dispatched Tool Call: the result its caller gets and, beside it, how the call ended,
 * decided where the result was made — nothing reads a result back to learn it.
 */
export interface Dispatched<R extends ToolResult = ToolResult> {
  result: R;
  outcome: Outcome;
  /** Set when nothing ran yet: the transport asks the agent's user this, then the call is retried. */
  confirm?: ConfirmationRequest;
  /** Set when the call became a task: the transport answers with it instead of the result. */
  task?: AgentTask;
}

/** A task as /mcp reports it to an agent, whatever the revision: the id is Quartermaster's handle. */
export interface AgentTask {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** A task Quartermaster reports failed itself (a Source's task asking for input): why, as a JSON-RPC error. */
  error?: { code: number; message: string };
}

/** A Tool's own answer (a Source's, an SDK Tool Host's, a built-in's success). */
export function answered<R extends ToolResult>(result: R): Dispatched<R> {
  return { result, outcome: { outcome: result.isError ? "is_error" : "ok", failureCode: null } };
}

/**
 * A call Quartermaster failed, as the Tool Result its caller gets — built-in and catalog
 * Tools alike: the code first in the text, for the model to read, and
 * `structuredContent.error { code, message, …details }` for a program.
 */
export function failedCall(code: string, message: string, details: Record<string, unknown> = {}): Dispatched {
  return {
    result: failedToolResult(code, message, details),
    outcome: { outcome: "failed", failureCode: code.slice(0, 100) },
  };
}

/**
 * A failure for a client that checks structuredContent against an output schema the error
 * does not fit (a catalog Tool's, listed as published): the code stays first in the text,
 * and the outcome beside it is unchanged.
 */
export function inTextOnly(dispatched: Dispatched): Dispatched {
  const { structuredContent: _error, ...result } = dispatched.result;
  return { ...dispatched, result };
}

export function failedResult(failure: ToolCallFailure): Dispatched {
  return failedCall(failure.code, failure.message, failure.details);
}
