/** Operators set call policies on a Tool or a Source; each change is audited and takes effect on the next call. */
import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { announce } from "../../events";
import { recordAudit } from "../audit/record";
import { parseInput } from "../validation";
import { effectivePolicy } from "./policy";
import {
  type TSetSourceCallPolicyInput,
  type TSetToolCallPolicyInput,
  ZSetSourceCallPolicyInput,
  ZSetToolCallPolicyInput,
} from "./schemas";

export async function setToolCallPolicy(actor: Actor, raw: TSetToolCallPolicyInput) {
  requireRole(actor, "operator");
  const input = parseInput(ZSetToolCallPolicyInput, raw);
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const tool = await tx.tool.findUnique({
      where: { id: input.toolId },
      select: { nativeName: true, callPolicy: true, source: { select: { name: true, callPolicy: true } } },
    });
    if (!tool) throw notFound("Tool");
    await tx.tool.update({ where: { id: input.toolId }, data: { callPolicy: input.policy } });
    await recordAudit(tx, actor, {
      action: "tool.call_policy",
      targetType: "tool",
      targetId: input.toolId,
      targetLabel: `${tool.source.name} / ${tool.nativeName}`,
      details: { from: tool.callPolicy, to: input.policy },
    });
    return effectivePolicy({ callPolicy: input.policy }, tool.source);
  });
  // The call-route cache holds Tools with their policies.
  announce("catalog");
  return result;
}

export async function setSourceCallPolicy(actor: Actor, raw: TSetSourceCallPolicyInput) {
  requireRole(actor, "operator");
  const input = parseInput(ZSetSourceCallPolicyInput, raw);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const source = await tx.source.findUnique({
      where: { id: input.sourceId },
      select: { name: true, callPolicy: true },
    });
    if (!source) throw notFound("Source");
    await tx.source.update({ where: { id: input.sourceId }, data: { callPolicy: input.policy } });
    await recordAudit(tx, actor, {
      action: "source.call_policy",
      targetType: "source",
      targetId: input.sourceId,
      targetLabel: source.name,
      details: { from: source.callPolicy, to: input.policy },
    });
  });
  announce("source");
  return { sourceId: input.sourceId, policy: input.policy };
}
