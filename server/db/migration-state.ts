/**
 * Where a database stands against this code's migrations: what it still lacks (pending)
 * and what it has that this code does not know (a newer version migrated it). Read from
 * Prisma's own history table, so it agrees with what `applyMigrations` will do.
 */
import type { Db } from "./open";

export interface MigrationState {
  committed: string[];
  /** Finished and not rolled back. */
  applied: Set<string>;
  /** This code's migrations the database lacks, in the order they apply. */
  pending: string[];
  /** Migrations the database has (finished or being applied) that this code does not have. */
  unknown: string[];
}

export async function readMigrationState(db: Db, committed: string[]): Promise<MigrationState> {
  // A database never migrated has no history table: everything is pending.
  const rows = await db
    .$queryRawUnsafe<{ migration_name: string; finished: boolean }[]>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations WHERE rolled_back_at IS NULL`,
    )
    .catch((error: unknown) => {
      if (/_prisma_migrations|does not exist|42P01/.test(String((error as Error)?.message ?? error))) return [];
      throw error;
    });
  const known = new Set(committed);
  const applied = new Set(rows.filter((r) => r.finished).map((r) => r.migration_name));
  const unknown = [...new Set(rows.map((r) => r.migration_name).filter((name) => !known.has(name)))].sort();
  return { committed, applied, pending: committed.filter((m) => !applied.has(m)), unknown };
}

/** The refusal an instance meets when its code is older than the database it was pointed at. */
export class CodeOlderThanDatabase extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `This Quartermaster is older than its database: the database has ${unknown.length === 1 ? "a migration" : `${unknown.length} migrations`} this version does not have (${unknown.join(", ")}). ` +
        "A newer version has migrated it, and an older version must not serve on a newer schema. " +
        "Start this instance from the newer version (the one the other instances run). See docs/postgresql.md, Rolling upgrades.",
    );
    this.name = "CodeOlderThanDatabase";
  }
}
