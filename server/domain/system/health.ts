import { database } from "../../db";
import { committedMigrationNames } from "../../db/migrations-dir";

export interface Health {
  status: "ok" | "degraded";
  process: "up";
  database: { kind: "embedded" | "postgresql" | "unknown"; reachable: boolean; error?: string };
  migrations: { current: boolean; pending: string[] };
  uptimeSeconds: number;
}

export async function checkHealth(): Promise<Health> {
  const base = { process: "up" as const, uptimeSeconds: Math.round(process.uptime()) };
  try {
    const opened = await database();
    const applied = await opened.db.$queryRawUnsafe<{ migration_name: string }[]>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    const done = new Set(applied.map((r) => r.migration_name));
    const pending = (await committedMigrationNames()).filter((m) => !done.has(m));
    return {
      ...base,
      status: pending.length ? "degraded" : "ok",
      database: { kind: opened.kind, reachable: true },
      migrations: { current: pending.length === 0, pending },
    };
  } catch (error) {
    return {
      ...base,
      status: "degraded",
      database: { kind: "unknown", reachable: false, error: (error as Error).message.split("\n")[0] },
      migrations: { current: false, pending: [] },
    };
  }
}
