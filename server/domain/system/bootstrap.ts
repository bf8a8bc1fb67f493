import { env } from "@/env";
import { database } from "../../db";
import { applyMigrations } from "../../db/schema-engine";
import { log } from "../../log";
import { ensureBootstrapApiKey } from "../api-keys/api-keys";
import { ensureAdmin } from "../users/users";

/**
 * What every start does before serving: apply committed migrations, then make sure
 * the bootstrap admin and API key from the environment exist.
 * Returns whether the database was empty before (first run).
 */
export async function prepareDatabase(): Promise<{ firstRun: boolean; applied: string[] }> {
  const opened = await database();
  const before = await opened.db
    .$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL")
    .then((r) => Number(r[0]?.n ?? 0))
    .catch(() => 0);
  const applied = await applyMigrations(opened.adapterFactory);
  if (applied.length) log.info({ applied }, "migrations applied");

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
  return { firstRun: before === 0, applied };
}
