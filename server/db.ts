/**
 * The process's one database handle. Created lazily (never at import time, so
 * `next build` does not open the data folder) and kept on globalThis: the custom
 * server and the bundled route code are separate module graphs in one process, and
 * an embedded PGlite folder may be opened only once.
 */
import "server-only";
import { env } from "@/env";
import { type Db, type OpenedDatabase, openDatabase } from "./db/open";

export type { Db };

const KEY = Symbol.for("quartermaster.database");
type Holder = { [KEY]?: Promise<OpenedDatabase> };
const holder = globalThis as Holder;

export function database(): Promise<OpenedDatabase> {
  holder[KEY] ??= openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.QM_DATA_DIR,
    vector: Boolean(env.QM_EMBEDDINGS_URL),
  });
  return holder[KEY];
}

export async function getDb(): Promise<Db> {
  return (await database()).db;
}

/** Installs an already-open database as the process's handle (tests, scripts). */
export function installDatabase(opened: OpenedDatabase): void {
  holder[KEY] = Promise.resolve(opened);
}

export async function closeDatabase(): Promise<void> {
  const current = holder[KEY];
  holder[KEY] = undefined;
  if (current) await (await current).close();
}
