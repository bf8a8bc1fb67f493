/**
 * Migrating a database that several instances may be starting on at once.
 *
 * An instance that finds every migration it has applied takes no lock at all (the usual
 * restart, and every instance but one in a scale-out). Otherwise the instances queue on an
 * advisory lock of their own, held on a dedicated connection for the whole run: one
 * applies the migrations, the others wait (logging how far it has got) for up to
 * QM_MIGRATION_WAIT_SECONDS, then find nothing left to do. Prisma's schema engine takes
 * its own lock with a fixed 10 s timeout, which a long migration outlasts; queueing here
 * first means the engine's lock is always free when it asks. If the migrating instance
 * dies, its connection closes, the lock goes with it and the next waiter carries on.
 *
 * An instance whose code lacks migrations the database has (a newer version migrated it)
 * is refused before it serves anything: see CodeOlderThanDatabase.
 */
import pg from "pg";
import { INSTANCE_ID } from "../instance";
import { log } from "../log";
import { CodeOlderThanDatabase, type MigrationState, readMigrationState } from "./migration-state";
import { committedMigrationNames, MIGRATIONS_DIR } from "./migrations-dir";
import type { OpenedDatabase } from "./open";
import { applyMigrations } from "./schema-engine";

/** Beside Prisma's own (72707369), never equal to it: the engine must find its lock free. */
export const MIGRATION_LOCK_KEY = 72707371;

export interface MigrateOptions {
  /** The PostgreSQL server's URL (the lock needs a connection of its own); unset on the embedded database. */
  url?: string;
  /** How long to wait for another instance that is migrating. */
  waitMs: number;
  dir?: string;
  /** How often a waiting instance logs where the migrating one has got. */
  progressEveryMs?: number;
}

export interface MigrateResult {
  applied: string[];
  /** Whether this instance queued for the lock (false: everything was applied already). */
  locked: boolean;
  waitedMs: number;
}

function check(state: MigrationState): MigrationState {
  if (state.unknown.length) throw new CodeOlderThanDatabase(state.unknown);
  return state;
}

export async function migrateDatabase(opened: OpenedDatabase, options: MigrateOptions): Promise<MigrateResult> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const committed = await committedMigrationNames(dir);
  const state = check(await readMigrationState(opened.db, committed));
  if (!state.pending.length) return { applied: [], locked: false, waitedMs: 0 };
  // One process holds an embedded database; nobody to queue behind.
  if (opened.kind === "embedded" || !options.url)
    return { applied: await applyMigrations(opened.adapterFactory, dir), locked: false, waitedMs: 0 };

  const lock = new pg.Client({
    connectionString: options.url,
    application_name: `quartermaster migrate ${INSTANCE_ID}`.slice(0, 63),
  });
  await lock.connect();
  try {
    const waitedMs = await acquire(lock, opened, committed, options);
    // Whoever held the lock may have applied everything (or been a newer version).
    const now = check(await readMigrationState(opened.db, committed));
    if (!now.pending.length) return { applied: [], locked: true, waitedMs };
    log.info({ pending: now.pending }, "applying migrations");
    return { applied: await applyMigrations(opened.adapterFactory, dir), locked: true, waitedMs };
  } finally {
    // Ending the session releases the advisory lock.
    await lock.end().catch(() => {});
  }
}

async function acquire(
  lock: pg.Client,
  opened: OpenedDatabase,
  committed: string[],
  options: MigrateOptions,
): Promise<number> {
  const started = Date.now();
  const progressEveryMs = options.progressEveryMs ?? 5_000;
  let lastLog = 0;
  for (;;) {
    const { rows } = await lock.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1) AS got", [MIGRATION_LOCK_KEY]);
    if (rows[0]?.got) {
      const waitedMs = Date.now() - started;
      if (lastLog)
        log.info({ waitedSeconds: Math.round(waitedMs / 1000) }, "the other instance has finished; going on");
      return waitedMs;
    }
    const waited = Date.now() - started;
    const holder = await lockHolder(lock);
    if (waited >= options.waitMs) {
      throw new Error(
        `Gave up after ${Math.round(waited / 1000)} s waiting for another instance to finish migrating the database` +
          `${holder ? ` (${holder})` : ""}. If its migrations take longer, raise QM_MIGRATION_WAIT_SECONDS; otherwise see whether that instance is stuck.`,
      );
    }
    if (lastLog === 0 || Date.now() - lastLog >= progressEveryMs) {
      lastLog = Date.now();
      const state = await readMigrationState(opened.db, committed).catch(() => null);
      log.info(
        {
          waitedSeconds: Math.round(waited / 1000),
          applied: state ? `${committed.length - state.pending.length} of ${committed.length}` : "unknown",
          holder,
          giveUpInSeconds: Math.round((options.waitMs - waited) / 1000),
        },
        "another instance is migrating the database; waiting for it",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Who holds the migration lock, for the log: the application name its connection gave. */
async function lockHolder(lock: pg.Client): Promise<string | null> {
  const { rows } = await lock
    .query<{ holder: string }>(
      `SELECT coalesce(nullif(a.application_name, ''), 'pid ' || a.pid) || ' since ' || to_char(a.backend_start, 'HH24:MI:SS') AS holder
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND l.classid = 0
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [MIGRATION_LOCK_KEY],
    )
    .catch(() => ({ rows: [] as { holder: string }[] }));
  return rows[0]?.holder ?? null;
}
