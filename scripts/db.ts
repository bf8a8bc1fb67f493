/**
 * npm run db:migrate            apply committed migrations to the configured database
 * npm run db:migration -- NAME  write prisma/migrations/<timestamp>_NAME from schema.prisma
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "@/env";
import { migrateDatabase } from "@/server/db/migrate";
import { openDatabase } from "@/server/db/open";
import { createMigrationScript, MIGRATIONS_DIR } from "@/server/db/schema-engine";

async function main(): Promise<number> {
  const [command, name] = process.argv.slice(2);
  if (command === "migrate") {
    const opened = await openDatabase({ url: env.DATABASE_URL, dataDir: env.QM_DATA_DIR });
    try {
      // Queued like a starting instance: safe beside instances that start at the same time.
      const { applied } = await migrateDatabase(opened, {
        url: env.DATABASE_URL,
        waitMs: env.QM_MIGRATION_WAIT_SECONDS * 1000,
      });
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
    } finally {
      await opened.close();
    }
    return 0;
  }
  if (command === "migration") {
    if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) {
      console.error("Usage: npm run db:migration -- NAME   (NAME: lowercase letters, digits and _)");
      return 2;
    }
    // Always against a fresh in-memory database: the result depends only on the
    // committed history and schema.prisma, never on a developer's data.
    const scratch = await openDatabase({ dataDir: "memory://" });
    try {
      const created = await createMigrationScript(scratch.adapterFactory, name);
      if (!created) {
        console.log("schema.prisma matches the migrations; nothing to write.");
        return 0;
      }
      const dir = path.join(MIGRATIONS_DIR, created.directory);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "migration.sql"), created.script);
      await writeFile(
        path.join(MIGRATIONS_DIR, "migration_lock.toml"),
        '# Written by scripts/db.ts; keep it in version control.\nprovider = "postgresql"\n',
      );
      console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
    } finally {
      await scratch.close();
    }
    return 0;
  }
  console.error("Usage: tsx scripts/db.ts migrate | migration NAME");
  return 2;
}

// PGlite keeps the event loop alive; exit explicitly.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
