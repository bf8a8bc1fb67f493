/**
 * Opens the database: PGlite (PostgreSQL in WebAssembly) in a data folder by default,
 * or a PostgreSQL server when DATABASE_URL is set. Same schema, same migrations.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { log } from "../log";
import { secureDataFolder } from "./data-folder";
import { lockDataFolder } from "./lock";

export type Db = PrismaClient;

export interface OpenedDatabase {
  db: Db;
  kind: "embedded" | "postgresql";
  /** The PGlite instance behind an embedded database (tests dump it as a template). */
  pglite?: PGlite;
  /** The same connection for the schema engine (migrations). */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The PostgreSQL server's address: a part that needs a connection of its own (LISTEN) opens it. */
  url?: string;
  /** Runs `stop` when the database closes, before its connections are: such a part's own connection. */
  onClose(stop: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… → a PostgreSQL server; otherwise the embedded database. */
  url?: string;
  /** Folder for PGlite; "memory://" keeps it in memory (tests). */
  dataDir?: string;
  /** A PGlite data-folder tarball to start from (tests start from a migrated template). */
  loadDataDir?: Blob;
  /** Load pgvector into the embedded database (memory search's optional vector leg). */
  vector?: boolean;
}

export async function openDatabase(options: OpenOptions): Promise<OpenedDatabase> {
  const stops: (() => Promise<void>)[] = [];
  const onClose = (stop: () => Promise<void>) => void stops.push(stop);
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop().catch(() => {});
  };
  if (options.url) {
    const factory = new PrismaPg({ connectionString: options.url, max: 10 });
    const db = new PrismaClient({ adapter: factory });
    return {
      db,
      kind: "postgresql",
      adapterFactory: factory,
      url: options.url,
      onClose,
      close: async () => {
        await stopAll();
        await db.$disconnect();
      },
    };
  }
  const dir = options.dataDir ?? "./.data";
  let location = dir;
  let unlock = async () => {};
  let folder: string | null = null;
  if (dir !== "memory://") {
    folder = path.resolve(/*turbopackIgnore: true*/ dir);
    const repaired = secureDataFolder(folder);
    if (repaired) log.warn({ folder, repaired }, "closed data-folder entries others could read or write");
    unlock = await lockDataFolder(folder);
    location = path.join(folder, "pglite");
    mkdirSync(location, { recursive: true, mode: 0o700 });
  }
  let pglite: PGlite;
  try {
    // pgvector ships as its own package; it is loaded only when the vector leg is on.
    const vector = options.vector ? (await import("@electric-sql/pglite-pgvector")).vector : undefined;
    pglite = await PGlite.create(location, {
      extensions: vector ? { pg_trgm, vector } : { pg_trgm },
      loadDataDir: options.loadDataDir,
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  // PGlite's file system layer sets its files 0666 whatever the umask: closed again now
  // and at close. Meanwhile the folders (0700) keep every other user from reaching them.
  if (folder) secureDataFolder(folder);
  const factory = new PrismaPGlite(pglite);
  // The schema engine diffs migrations on a shadow database, which the adapter opens bare;
  // it needs the extensions the migrations create.
  factory.connectToShadowDb = async () =>
    new PrismaPGlite(await PGlite.create("memory://", { extensions: { pg_trgm } })).connect();
  const db = new PrismaClient({ adapter: factory });
  return {
    db,
    kind: "embedded",
    pglite,
    adapterFactory: factory,
    onClose,
    close: async () => {
      await stopAll();
      await db.$disconnect();
      await pglite.close();
      if (folder) secureDataFolder(folder);
      await unlock();
    },
  };
}
