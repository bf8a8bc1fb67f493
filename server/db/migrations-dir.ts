import { readdir } from "node:fs/promises";
import path from "node:path";

export const MIGRATIONS_DIR = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma/migrations");

/** Names of the committed migrations, in the order they apply. */
export async function committedMigrationNames(dir = MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
