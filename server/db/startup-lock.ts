/**
 * The steps of a start that write what must exist once — the bootstrap admin and API key,
 * the demo data — run one instance at a time. Each checks and then creates, so two
 * instances starting together on an empty PostgreSQL database both found no admin, both
 * created one, and the second exited on the unique email (seen once in a scale-out trial).
 * The queue is an advisory lock held on a connection of its own, as migrate.ts does; its
 * waiter blocks in the server, not in a poll. In one process (the embedded database, or
 * tests) callers queue on a promise instead.
 */
import pg from "pg";
import { INSTANCE_ID } from "../instance";
import { MIGRATION_LOCK_KEY } from "./migrate";
import type { OpenedDatabase } from "./open";

/** Beside the migration lock and never equal to it: a migrating instance holds that one. */
export const STARTUP_LOCK_KEY = MIGRATION_LOCK_KEY + 1;

let queue: Promise<unknown> = Promise.resolve();

function inProcess<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => {});
  return run;
}

export async function withStartupLock<T>(
  opened: OpenedDatabase,
  options: { url?: string; waitMs: number },
  fn: () => Promise<T>,
): Promise<T> {
  if (opened.kind === "embedded" || !options.url) return inProcess(fn);
  return inProcess(async () => {
    const lock = new pg.Client({
      connectionString: options.url,
      application_name: `quartermaster start ${INSTANCE_ID}`.slice(0, 63),
    });
    await lock.connect();
    try {
      await lock.query(`SET lock_timeout = ${Math.max(1, Math.round(options.waitMs))}`);
      try {
        await lock.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
      } catch (error) {
        if ((error as { code?: string }).code !== "55P03") throw error;
        throw new Error(
          `Gave up after ${Math.round(options.waitMs / 1000)} s waiting for another instance to finish starting (creating the bootstrap admin, API key or demo data). Raise QM_MIGRATION_WAIT_SECONDS, or see whether that instance is stuck.`,
        );
      }
      return await fn();
    } finally {
      // Ending the session releases the lock, also when fn threw.
      await lock.end().catch(() => {});
    }
  });
}
