import { getDb } from "../../db";
import type { Prisma } from "../../db/types";

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
