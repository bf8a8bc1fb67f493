import { readdir } from "node:fs/promises";
import path from "node:path";
import { env } from "@/env";

/** prisma/migrations in the working folder, unless QM_MIGRATIONS_DIR says where an image keeps them. */
export const MIGRATIONS_DIR = path.resolve(
  /*turbopackIgnore: true*/ process.cwd(),
  env.QM_MIGRATIONS_DIR ?? "prisma/migrations",
);

/** Names of the committed migrations, in the order they apply. */
export async function committedMigrationNames(dir = MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
