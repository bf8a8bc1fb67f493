/**
 * tools/call at /mcp for a catalog Tool: the agent names it by its model-facing name; the
 * call is checked against the Tool Call limits, proxied to the Tool's Source under its
 * native name, and its result is accepted only within the Tool Result limits. A call
 * that fails on the Source's side comes back as a Tool Result marked isError, with a
 * code and a reason, so the model can act on it.
 */
import type { Actor } from "../../actor";
import { decryptJson } from "../../crypto";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { fmt, fmtBytes } from "../catalog/failures";
import { heldToolsWhere } from "../identities/holdings";
import { loadUrlPolicy } from "../sources/network-policy";
import { ToolCallFailure } from "./failures";
import { servedIdentity } from "./identity";
import { callRemoteTool } from "./remote-call";

export interface ToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export async function callOfferedTool(
  actor: Actor,
  input: { name: string; arguments?: unknown; signal?: AbortSignal },
): Promise<ToolResult> {
  const identity = await servedIdentity(actor);
  const args = checkArguments(input.arguments);
  const db = await getDb();
  const tool = await db.tool.findFirst({
    where: { ...heldToolsWhere(identity.id), modelFacingName: input.name },
    select: {
      nativeName: true,
      source: { select: { id: true, kind: true, url: true, encryptedHeaders: true } },
    },
  });
  if (!tool)
    throw new DomainError("NOT_FOUND", `No Tool named "${input.name}" is offered to this Agent Identity.`, {
      field: "name",
    });

  const started = performance.now();
  let result: ToolResult;
  try {
    if (tool.source.kind !== "mcp_connection" || !tool.source.url)
      throw new ToolCallFailure(
        "TOOL_HOST_CALLS_UNAVAILABLE",
        "This Tool's Source is an SDK Tool Host; Quartermaster does not deliver calls to SDK Tool Hosts yet.",
      );
    const { allowLinkLocal } = await loadUrlPolicy();
    const raw = await callRemoteTool({
      url: tool.source.url,
      headers: tool.source.encryptedHeaders ? decryptJson<Record<string, string>>(tool.source.encryptedHeaders) : {},
      allowLinkLocal,
      nativeName: tool.nativeName,
      arguments: args,
      signal: input.signal,
    });
    result = acceptToolResult(raw);
  } catch (error) {
    if (!(error instanceof ToolCallFailure)) throw error;
    result = failedResult(error);
  }
  log.info(
    {
      identityId: identity.id,
      sourceId: tool.source.id,
      tool: input.name,
      ms: Math.round(performance.now() - started),
      failure: result.isError ? (result.structuredContent?.error as { code?: string } | undefined)?.code : undefined,
    },
    "tool call",
  );
  return result;
}

function checkArguments(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new DomainError("INVALID_INPUT", "arguments: must be an object of named arguments", { field: "arguments" });
  const count = Object.keys(raw).length;
  const limit = LIMITS.CALL_TOP_LEVEL_ARGUMENTS.value;
  if (count > limit)
    throw new DomainError(
      "INVALID_INPUT",
      `arguments: ${fmt(count)} top-level properties; a Tool Call may have at most ${fmt(limit)}.`,
      { field: "arguments", measured: count, limit },
    );
  return raw as Record<string, unknown>;
}

function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The Source's answer as a Tool Result, or a ToolCallFailure naming the limit it broke. */
export function acceptToolResult(raw: Record<string, unknown>): ToolResult {
  if (!Array.isArray(raw.content))
    throw new ToolCallFailure("TOOL_RESULT_MALFORMED", 'The Source\'s answer has no "content" list.');
  const result: ToolResult = { content: raw.content };
  if (raw.structuredContent && typeof raw.structuredContent === "object" && !Array.isArray(raw.structuredContent))
    result.structuredContent = raw.structuredContent as Record<string, unknown>;
  if (raw.isError === true) result.isError = true;

  const bytes = Buffer.byteLength(JSON.stringify(result));
  const maxBytes = LIMITS.TOOL_RESULT_BYTES.value;
  if (bytes > maxBytes)
    throw new ToolCallFailure(
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
    throw new ToolCallFailure(
      "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS",
      `The Tool Result has ${fmt(texts.length)} text blocks; at most ${fmt(maxBlocks)} are accepted.`,
      { measured: texts.length, limit: maxBlocks, unit: "blocks" },
    );
  const maxChars = LIMITS.TOOL_RESULT_TEXT_BLOCK_CHARS.value;
  for (const [index, block] of texts.entries()) {
    if (typeof block.text !== "string")
      throw new ToolCallFailure("TOOL_RESULT_MALFORMED", `Text block ${index + 1} of the Tool Result has no text.`);
    // Cheap bound first: a string has at least as many UTF-16 units as characters.
    if (block.text.length > maxChars && characters(block.text) > maxChars) {
      const measured = characters(block.text);
      throw new ToolCallFailure(
        "TOOL_RESULT_TEXT_TOO_LONG",
        `Text block ${index + 1} of the Tool Result has ${fmt(measured)} characters; each may have at most ${fmt(maxChars)}.`,
        { measured, limit: maxChars, unit: "characters", block: index + 1 },
      );
    }
  }
  return result;
}

function failedResult(failure: ToolCallFailure): ToolResult {
  return {
    content: [{ type: "text", text: `${failure.code}: ${failure.message}` }],
    structuredContent: { error: { code: failure.code, message: failure.message, ...failure.details } },
    isError: true,
  };
}
