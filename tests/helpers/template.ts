/**
 * Each integration test file gets a database of its own, copied from a template that
 * global setup migrated once: a PGlite data-folder dump on the embedded database, a
 * `CREATE DATABASE … TEMPLATE` on PostgreSQL (QM_TEST_POSTGRES=1).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const POSTGRES_URL = process.env.QM_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const usePostgres = process.env.QM_TEST_POSTGRES === "1";

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Runs one statement on the server's maintenance database. Statements run one at a
 * time across test workers (an advisory lock): PostgreSQL refuses to copy a template
 * database while another copy of it is being made.
 */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(727271)");
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function randomName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString("hex")}`;
}
