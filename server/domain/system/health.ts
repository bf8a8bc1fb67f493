import { database } from "../../db";
import { committedMigrationNames } from "../../db/migrations-dir";

export interface Health {
  status: "ok" | "degraded";
  process: "up";
  database: { kind: "embedded" | "postgresql" | "unknown"; reachable: boolean; error?: string };
  migrations: { current: boolean; pending: string[] };
  uptimeSeconds: number;
}

async function appliedMigrationNames(db: Awaited<ReturnType<typeof database>>["db"]): Promise<Set<string>> {
  // A database never migrated has no history table: everything is pending.
  const rows = await db
    .$queryRawUnsafe<{ migration_name: string }[]>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    )
    .catch(() => []);
  return new Set(rows.map((r) => r.migration_name));
}

export async function checkHealth(): Promise<Health> {
  const base = { process: "up" as const, uptimeSeconds: Math.round(process.uptime()) };
  let opened: Awaited<ReturnType<typeof database>>;
  try {
    opened = await database();
    await opened.db.$queryRawUnsafe("SELECT 1");
  } catch (error) {
    return {
      ...base,
      status: "degraded",
      database: { kind: "unknown", reachable: false, error: (error as Error).message.split("\n")[0] },
      migrations: { current: false, pending: [] },
    };
  }
  const done = await appliedMigrationNames(opened.db);
  const pending = (await committedMigrationNames()).filter((m) => !done.has(m));
  return {
    ...base,
    status: pending.length ? "degraded" : "ok",
    database: { kind: opened.kind, reachable: true },
    migrations: { current: pending.length === 0, pending },
  };
}
