import { env } from "@/env";
import { database } from "../../db";
import { migrateDatabase } from "../../db/migrate";
import { withStartupLock } from "../../db/startup-lock";
import { log } from "../../log";
import { ensureBootstrapApiKey } from "../api-keys/api-keys";
import { clearLeasesAtStart } from "../catalog/lease";
import { resealLegacyHeaders } from "../sources/headers";
import { ensureAdmin } from "../users/users";

/**
 * What every start does before serving: apply committed migrations (queued behind any
 * other instance applying them, refused if the database is newer than this code), let go of what a
 * crashed process left held (embedded database only), bind saved headers to their Source,
 * then make sure the bootstrap admin and API key from the environment exist (one starting
 * instance at a time: see startupLock). Returns whether the database was empty before (first run).
 */
export async function prepareDatabase(): Promise<{ firstRun: boolean; applied: string[] }> {
  const opened = await database();
  const before = await opened.db
    .$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL")
    .then((r) => Number(r[0]?.n ?? 0))
    .catch(() => 0);
  const { applied } = await migrateDatabase(opened, {
    url: env.DATABASE_URL,
    waitMs: env.QM_MIGRATION_WAIT_SECONDS * 1000,
  });
  if (applied.length) log.info({ applied }, "migrations applied");
  if (opened.kind === "embedded") {
    const cleared = await clearLeasesAtStart();
    if (cleared.leases || cleared.checks) log.info(cleared, "released what a stopped process held");
  }
  await duringStartup(async () => {
    const resealed = await resealLegacyHeaders();
    if (resealed) log.info({ resealed }, "saved headers bound to their Source");

    if (env.QM_BOOTSTRAP_ADMIN_EMAIL && env.QM_BOOTSTRAP_ADMIN_PASSWORD) {
      const { created } = await ensureAdmin({
        email: env.QM_BOOTSTRAP_ADMIN_EMAIL,
        password: env.QM_BOOTSTRAP_ADMIN_PASSWORD,
      });
      log.info({ email: env.QM_BOOTSTRAP_ADMIN_EMAIL, created }, "bootstrap admin ready");
    }
    if (env.QM_BOOTSTRAP_API_KEY) {
      const { created } = await ensureBootstrapApiKey(env.QM_BOOTSTRAP_API_KEY);
      log.info({ created }, "bootstrap API key ready");
    }
  });
  return { firstRun: before === 0, applied };
}

/**
 * Runs a start-up step that checks and then creates (the bootstrap admin, the demo data)
 * while no other instance starting on this database runs one.
 */
export async function duringStartup<T>(fn: () => Promise<T>): Promise<T> {
  return withStartupLock(await database(), { url: env.DATABASE_URL, waitMs: env.QM_MIGRATION_WAIT_SECONDS * 1000 }, fn);
}
