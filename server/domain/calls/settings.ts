/**
 * The call log's settings: how long rows are kept (installation-wide, default 30 days),
 * and payload capture per Agent Identity — off unless an admin turns it on, with a
 * retention of its own. Both audited.
 */
import { type Actor, actorLabel, requireRole } from "../../actor";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { recordAudit } from "../audit/record";
import { readSetting, writeAuditedSetting } from "../system/settings";
import { parseInput } from "../validation";
import { type TSetCaptureInput, ZCallLogSettingsInput, ZSetCaptureInput } from "./schemas";

const RETENTION_KEY = "callLog.retentionDays";

/** Days call log rows are kept. */
export async function callLogRetentionDays(): Promise<number> {
  const stored = await readSetting<number>(RETENTION_KEY);
  return typeof stored === "number" && stored > 0 ? stored : LIMITS.CALL_LOG_RETENTION_DAYS_DEFAULT.value;
}

export async function getCallLogSettings(actor: Actor) {
  requireRole(actor, "viewer");
  return { retentionDays: await callLogRetentionDays() };
}

export async function setCallLogSettings(actor: Actor, raw: { retentionDays: number }) {
  requireRole(actor, "admin");
  const input = parseInput(ZCallLogSettingsInput, raw);
  await writeAuditedSetting(actor, RETENTION_KEY, input.retentionDays, {
    action: "call_log.set_retention",
    targetLabel: "Call log",
    details: { retentionDays: input.retentionDays },
  });
  return input;
}

/** Whether an identity's calls keep their payloads, and for how long. */
export async function getCapture(actor: Actor, raw: { identityId: string }) {
  requireRole(actor, "viewer");
  const { identityId } = parseInput(ZSetCaptureInput.pick({ identityId: true }), raw);
  const db = await getDb();
  const row = await db.callCapture.findUnique({ where: { identityId } });
  return row
    ? { enabled: true, retentionDays: row.retentionDays, enabledAt: row.enabledAt, enabledBy: row.enabledBy }
    : { enabled: false as const };
}

/** Turns payload capture on (with a retention) or off for one identity. Admins only. */
export async function setCapture(actor: Actor, raw: TSetCaptureInput) {
  requireRole(actor, "admin");
  const input = parseInput(ZSetCaptureInput, raw);
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({
    where: { id: input.identityId },
    select: { id: true, name: true },
  });
  if (!identity) throw notFound("Agent Identity");
  await db.$transaction(async (tx) => {
    if (input.retentionDays === null) {
      await tx.callCapture.deleteMany({ where: { identityId: identity.id } });
      // Off means off: what was captured goes now, not when its retention ends.
      await tx.callLog.updateMany({
        where: { identityId: identity.id, payloadExpiresAt: { not: null } },
        data: { arguments: null, result: null, payloadExpiresAt: null },
      });
    } else {
      const values = { retentionDays: input.retentionDays, enabledBy: actorLabel(actor) };
      await tx.callCapture.upsert({
        where: { identityId: identity.id },
        create: { identityId: identity.id, ...values },
        update: values,
      });
    }
    await recordAudit(tx, actor, {
      action: input.retentionDays === null ? "call_log.capture_off" : "call_log.capture_on",
      targetType: "identity",
      targetId: identity.id,
      targetLabel: identity.name,
      details: { retentionDays: input.retentionDays },
    });
  });
  return getCapture(actor, { identityId: identity.id });
}
