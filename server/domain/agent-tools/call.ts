/**
 * tools/call at /mcp for a catalog Tool: the agent names it by its model-facing name; the
 * call is checked against the Tool Call limits, proxied to the Tool's Source under its
 * native name, and its result is accepted only within the Tool Result limits. A call
 * that fails on the Source's side comes back as a Tool Result marked isError, with a
 * code and a reason, so the model can act on it.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { fmt } from "../catalog/failures";
import { measureSchemas } from "../catalog/schema-measure";
import { heldToolsWhere } from "../identities/holdings";
import { HeadersUnreadable, openHeaders } from "../sources/headers";
import { loadUrlPolicy } from "../sources/network-policy";
import { ToolCallFailure } from "./failures";
import { callHostTool } from "./host-calls";
import { servedIdentity } from "./identity";
import { callRemoteTool } from "./remote-call";
import { acceptToolResult, failedResult, type ToolResult } from "./result";
import { routed } from "./route-cache";

export async function callOfferedTool(
  actor: Actor,
  input: { name: string; arguments?: unknown; signal?: AbortSignal },
): Promise<ToolResult> {
  const args = checkArguments(input.arguments);
  const identity = await routed(`identity\0${actor.kind === "agent" ? actor.identityId : ""}`, () =>
    servedIdentity(actor),
  );
  const tool = await routed(`tool\0${identity.id}\0${input.name}`, async () => {
    const db = await getDb();
    return db.tool.findFirst({
      where: { ...heldToolsWhere(identity.id), modelFacingName: input.name },
      select: {
        nativeName: true,
        source: { select: { id: true, kind: true, url: true, encryptedHeaders: true, protocolVersion: true } },
      },
    });
  });
  if (!tool)
    throw new DomainError("NOT_FOUND", `No Tool named "${input.name}" is offered to this Agent Identity.`, {
      field: "name",
    });

  const started = performance.now();
  let result: ToolResult;
  try {
    if (tool.source.kind === "sdk_tool_host" || !tool.source.url) {
      result = await callHostTool({
        sourceId: tool.source.id,
        nativeName: tool.nativeName,
        arguments: args,
        signal: input.signal,
      });
    } else {
      const { allowLinkLocal } = await routed("policy", loadUrlPolicy);
      const sourceId = tool.source.id;
      const raw = await callRemoteTool({
        sourceId,
        protocolVersion: tool.source.protocolVersion,
        onVersion: (protocolVersion) => void recordProtocolVersion(sourceId, protocolVersion),
        url: tool.source.url,
        headers: openSourceHeaders(tool.source),
        allowLinkLocal,
        nativeName: tool.nativeName,
        arguments: args,
        signal: input.signal,
      });
      result = acceptToolResult(raw);
    }
  } catch (error) {
    if (!(error instanceof ToolCallFailure)) throw error;
    result = failedResult(error);
  }
  // Per call, like a request: debug, so the terminal stays quiet (the call log keeps the record).
  log.debug(
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

/** The revision a new session negotiated, for the console and the next instance's first call. */
async function recordProtocolVersion(sourceId: string, protocolVersion: string) {
  try {
    const db = await getDb();
    await db.source.updateMany({ where: { id: sourceId }, data: { protocolVersion } });
  } catch (error) {
    log.warn({ err: error, sourceId }, "could not record a Source's protocol revision");
  }
}

function openSourceHeaders(source: { id: string; encryptedHeaders: string | null }): Record<string, string> {
  try {
    return openHeaders(source);
  } catch (error) {
    if (error instanceof HeadersUnreadable) throw new ToolCallFailure("SOURCE_UNREACHABLE", error.message);
    throw error;
  }
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
  // Checked before the arguments are serialized for the Source (serializing recurses).
  const maxDepth = LIMITS.JSON_DEPTH.value;
  const depth = measureSchemas([raw], { depth: maxDepth, nodes: Number.POSITIVE_INFINITY });
  if (depth.exceeded)
    throw new DomainError(
      "INVALID_INPUT",
      `arguments: nested more than ${fmt(maxDepth)} levels deep; Tool Call arguments may nest at most ${fmt(maxDepth)}.`,
      { field: "arguments", measured: depth.depth, limit: maxDepth },
    );
  return raw as Record<string, unknown>;
}
