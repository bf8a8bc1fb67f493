import type { Actor } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { type AuditEntry, recordAudit } from "../audit/record";

/** Installation-wide facts and admin settings, stored as JSON under a key. */
export async function readSetting<T>(key: string): Promise<T | null> {
  const db = await getDb();
  const row = await db.installationSetting.findUnique({ where: { key } });
  return (row?.value as T | undefined) ?? null;
}

export async function writeSetting(key: string, value: Prisma.InputJsonValue): Promise<void> {
  const db = await getDb();
  await db.installationSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
}

/** An admin's change of a setting: the value and its audit event, in one transaction. */
export async function writeAuditedSetting(
  actor: Actor,
  key: string,
  value: Prisma.InputJsonValue,
  audit: Omit<AuditEntry, "targetType">,
): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await tx.installationSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
    await recordAudit(tx, actor, { targetType: "installation", ...audit });
  });
}
