import { getDb } from "../../db";
import { DomainError, notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { heldToolsWhere } from "./holdings";
import { ZPinInput } from "./schemas";

export const pinTool = operation({ role: "operator", input: ZPinInput }, async (actor, { identityId, name }) => {
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({ where: { id: identityId }, select: { name: true } });
  if (!identity) throw notFound("Agent Identity");
  const held = await db.tool.findFirst({
    where: { AND: [heldToolsWhere(identityId), { modelFacingName: name }] },
    select: { id: true },
  });
  if (!held)
    throw new DomainError("INVALID_INPUT", `name: this Agent Identity holds no Tool named "${name}".`, {
      field: "name",
    });
  return db.$transaction(async (tx) => {
    const count = await tx.toolPin.count({ where: { identityId } });
    const existing = await tx.toolPin.findUnique({
      where: { identityId_modelFacingName: { identityId, modelFacingName: name } },
    });
    if (existing) return { pinned: true };
    if (count >= LIMITS.PINS_PER_IDENTITY.value)
      throw new DomainError(
        "INVALID_INPUT",
        `name: an Agent Identity may pin at most ${LIMITS.PINS_PER_IDENTITY.value} Tools (PINS_PER_IDENTITY); unpin one first.`,
        { field: "name" },
      );
    await tx.toolPin.create({ data: { identityId, modelFacingName: name } });
    await recordAudit(tx, actor, {
      action: "identity.pin_tool",
      targetType: "identity",
      targetId: identityId,
      targetLabel: identity.name,
      details: { tool: name },
    });
    return { pinned: true };
  });
});

export const unpinTool = operation({ role: "operator", input: ZPinInput }, async (actor, { identityId, name }) => {
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({ where: { id: identityId }, select: { name: true } });
  if (!identity) throw notFound("Agent Identity");
  return db.$transaction(async (tx) => {
    const { count } = await tx.toolPin.deleteMany({ where: { identityId, modelFacingName: name } });
    if (count)
      await recordAudit(tx, actor, {
        action: "identity.unpin_tool",
        targetType: "identity",
        targetId: identityId,
        targetLabel: identity.name,
        details: { tool: name },
      });
    return { pinned: false };
  });
});
