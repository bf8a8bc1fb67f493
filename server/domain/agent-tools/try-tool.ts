/**
 * "Try a Tool" from the console: an operator calls a catalog Tool as one Agent Identity
 * would, through the same domain path /mcp uses (callOfferedTool: the identity's budget
 * state, its held Tools, the call and result limits, the proxy to the Source). The answer
 * carries the JSON-RPC exchange as /mcp would have written it. The call is recorded in the
 * call log as the identity's, marked as tried from the console (CONSOLE_TRY_TOKEN), and who
 * tried it in the audit log.
 */
import { type Actor, actorLabel, requireRole } from "../../actor";
import { getDb } from "../../db";
import { DomainError, jsonRpcErrorOf, notFound } from "../../errors";
import { recordAudit } from "../audit/record";
import { CONSOLE_TRY_TOKEN } from "../calls/console-try";
import { observeToolCall } from "../calls/observe";
import { parseInput } from "../validation";
import { callOfferedTool } from "./call";
import type { ToolResult } from "./result";
import { type TTryToolInput, ZTryToolInput } from "./try-schemas";

export interface TryToolAnswer {
  request: { jsonrpc: "2.0"; id: number; method: "tools/call"; params: { name: string; arguments: unknown } };
  response:
    | { jsonrpc: "2.0"; id: number; result: ToolResult }
    | { jsonrpc: "2.0"; id: number; error: { code: number; message: string; data: Record<string, unknown> } };
  ms: number;
  identity: { id: string; name: string };
}

export async function tryTool(actor: Actor, raw: TTryToolInput): Promise<TryToolAnswer> {
  requireRole(actor, "operator");
  const input = parseInput(ZTryToolInput, raw);
  const db = await getDb();
  const tool = await db.tool.findUnique({
    where: { id: input.toolId },
    select: { id: true, nativeName: true, modelFacingName: true, definitionHash: true, sourceId: true },
  });
  if (!tool) throw notFound("Tool");
  if (!tool.modelFacingName)
    throw new DomainError(
      "INVALID_INPUT",
      "toolId: this Tool is not offered to models (it is not Compatible), so no identity can call it.",
      { field: "toolId" },
    );
  const identity = await db.agentIdentity.findUnique({
    where: { id: input.identityId },
    select: { id: true, name: true },
  });
  if (!identity) throw notFound("Agent Identity");
  if (!input.confirmed && (await isDestructive(tool.definitionHash)))
    throw new DomainError(
      "INVALID_INPUT",
      "confirmed: this Tool says it is destructive (destructiveHint); confirm the call to run it.",
      { field: "confirmed" },
    );

  const request = {
    jsonrpc: "2.0" as const,
    id: 1,
    method: "tools/call" as const,
    params: { name: tool.modelFacingName, arguments: input.arguments },
  };
  // The identity as its agents are: the same checks apply, with no token of theirs involved
  // (the call log shows the token as "console").
  const asAgent: Actor = {
    kind: "agent",
    identityId: identity.id,
    tokenId: CONSOLE_TRY_TOKEN,
    label: `${identity.name} (tried by ${actorLabel(actor)})`,
  };
  const started = performance.now();
  let response: TryToolAnswer["response"];
  let failure: string | null = null;
  try {
    // Wrapped as /mcp wraps every call: the identity's rate limits, the call log row, metrics.
    const call = { name: tool.modelFacingName, arguments: input.arguments };
    // Under `confirm`, the operator trying it is the person who confirms (the console asks first).
    const confirmation = { canAsk: false, console: { confirmed: input.confirmed === true } };
    const { result, outcome } = await observeToolCall(asAgent, call, () =>
      callOfferedTool(asAgent, { ...call, confirmation }),
    );
    response = { jsonrpc: "2.0", id: 1, result };
    if (outcome.outcome !== "ok") failure = outcome.failureCode ?? "isError";
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    failure = error.code;
    response = { jsonrpc: "2.0", id: 1, error: jsonRpcErrorOf(error) };
  }
  const ms = Math.round(performance.now() - started);
  await recordAudit(db, actor, {
    action: "tool.try",
    targetType: "tool",
    targetId: tool.id,
    targetLabel: tool.nativeName,
    // Argument names only: their values may be anything the operator typed.
    details: {
      identityId: identity.id,
      identityName: identity.name,
      modelFacingName: tool.modelFacingName,
      argumentNames: Object.keys(input.arguments),
      confirmed: input.confirmed === true,
      ms,
      outcome: failure ? "failed" : "succeeded",
      ...(failure ? { failure } : {}),
    },
  });
  return { request, response, ms, identity };
}

async function isDestructive(definitionHash: string): Promise<boolean> {
  const db = await getDb();
  const stored = await db.toolDefinition.findUnique({ where: { hash: definitionHash }, select: { definition: true } });
  if (!stored) return false;
  const annotations = (JSON.parse(stored.definition) as { annotations?: { destructiveHint?: unknown } }).annotations;
  return annotations?.destructiveHint === true;
}
