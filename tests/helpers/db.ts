import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, inject } from "vitest";
import { resetAuth } from "@/server/auth";
import { closeDatabase, installDatabase } from "@/server/db";
import { type OpenedDatabase, openDatabase } from "@/server/db/open";
import { adminQuery, databaseUrl, randomName, usePostgres } from "./template";

export async function openFromTemplate(): Promise<{ opened: OpenedDatabase; drop: () => Promise<void>; url?: string }> {
  if (usePostgres) {
    const name = randomName("qm_test");
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject("postgresTemplate")}`);
    const url = databaseUrl(name);
    const opened = await openDatabase({ url });
    return { opened, url, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const tar = await readFile(inject("pgliteTemplate"));
  const opened = await openDatabase({ dataDir: "memory://", loadDataDir: new Blob([tar]) });
  return { opened, drop: async () => {} };
}

/**
 * Gives the calling test file a fresh, migrated database of its own and installs it
 * as the process's database, so domain code and transports use it unchanged.
 */
export function withTestDatabase(): { current(): OpenedDatabase; url(): string | undefined } {
  let handle: { opened: OpenedDatabase; drop: () => Promise<void>; url?: string } | undefined;
  beforeAll(async () => {
    handle = await openFromTemplate();
    installDatabase(handle.opened);
    resetAuth();
  });
  afterAll(async () => {
    await closeDatabase();
    await handle?.drop();
  });
  return {
    current() {
      if (!handle) throw new Error("database not ready: call inside a test or hook");
      return handle.opened;
    },
    /** On PostgreSQL, the database's URL, for a second process (another app instance) to open. */
    url() {
      return handle?.url;
    },
  };
}
