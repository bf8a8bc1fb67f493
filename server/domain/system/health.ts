import { database } from "../../db";
import { readMigrationState } from "../../db/migration-state";
import { committedMigrationNames } from "../../db/migrations-dir";
import { isDraining } from "../../instance";

export interface Health {
  status: "ok" | "degraded";
  process: "up";
  database: { kind: "embedded" | "postgresql" | "unknown"; reachable: boolean; error?: string };
  /**
   * `current`: every migration this code has is applied. `newer`: migrations the database
   * has that this code lacks: a newer version is rolling out (this one keeps serving).
   */
  migrations: { current: boolean; pending: string[]; newer: string[] };
  draining: boolean;
  uptimeSeconds: number;
}

/** A database that does not answer must not hold up the probe: probes time out too. */
const DATABASE_PROBE_MS = 3_000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Prisma's messages open with a blank line and the call that failed; the cause is further down.
function causeOf(error: unknown): string {
  const lines = String((error as Error)?.message ?? error)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? "unknown error";
}

export async function checkHealth(): Promise<Health> {
  const base = { process: "up" as const, uptimeSeconds: Math.round(process.uptime()), draining: isDraining() };
  let opened: Awaited<ReturnType<typeof database>>;
  let state: Awaited<ReturnType<typeof readMigrationState>>;
  try {
    opened = await within(database(), DATABASE_PROBE_MS);
    const db = opened.db;
    state = await within(
      db.$queryRawUnsafe("SELECT 1").then(async () => readMigrationState(db, await committedMigrationNames())),
      DATABASE_PROBE_MS,
    );
  } catch (error) {
    return {
      ...base,
      status: "degraded",
      database: { kind: "unknown", reachable: false, error: causeOf(error) },
      migrations: { current: false, pending: [], newer: [] },
    };
  }
  const current = state.pending.length === 0;
  return {
    ...base,
    status: current ? "ok" : "degraded",
    database: { kind: opened.kind, reachable: true },
    migrations: { current, pending: state.pending, newer: state.unknown },
  };
}

/** Whether this instance should get traffic: database reachable, migrations current, not draining. */
export function isReady(health: Health): boolean {
  return health.database.reachable && health.migrations.current && !health.draining;
}
