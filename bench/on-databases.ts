/**
 * The driver the bench:* scripts share: one suite on the embedded database and on a
 * throwaway PostgreSQL database (argv[2] "embedded" or "postgresql" runs one; PostgreSQL is
 * skipped when unreachable), one table row per line. The caller sets the environment
 * first: server modules are imported here, after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchRow } from "./memory";

/**
 * The environment every bench script sets before it imports server code (which reads it at
 * import): a fresh data folder, silent logs, no demo, a fixed secret. Returns the folder.
 */
export function benchEnvironment(label?: string): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), label ? `qm-bench-${label}-` : "qm-bench-"));
  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    QM_DATA_DIR: dataDir,
    QM_DEMO: "0",
    QM_SECRET: "bench-secret-bench-secret-bench-secret-01",
  });
  return dataDir;
}

type Kind = "embedded" | "postgresql";

export async function runOnDatabases(options: {
  dataDir: string;
  /** Names the throwaway PostgreSQL database (qm_bench_<label>_<time>). */
  label: string;
  suite: (kind: Kind) => Promise<BenchRow[]>;
  /** Padding of the name and value columns. */
  widths: [name: number, value: number];
}): Promise<never> {
  const { installDatabase, closeDatabase } = await import("@/server/db");
  const { openDatabase } = await import("@/server/db/open");
  const { applyMigrations } = await import("@/server/db/schema-engine");
  const PG_URL = process.env.QM_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const which = process.argv[2] ?? "both";

  async function on(kind: Kind) {
    let drop = async () => {};
    let url: string | undefined;
    if (kind === "postgresql") {
      const pg = (await import("pg")).default;
      const admin = new pg.Client({ connectionString: PG_URL });
      try {
        await admin.connect();
      } catch {
        console.log("postgresql not reachable; skipped");
        return;
      }
      const name = `qm_bench_${options.label}_${Date.now()}`;
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const u = new URL(PG_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      drop = async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      };
    }
    const opened = await openDatabase(url ? { url } : { dataDir: options.dataDir });
    await applyMigrations(opened.adapterFactory);
    installDatabase(opened);
    const [nameWidth, valueWidth] = options.widths;
    try {
      for (const row of await options.suite(kind))
        console.log(
          `${kind.padEnd(10)} ${row.name.padEnd(nameWidth)} ${row.value.padEnd(valueWidth)} ${row.goal} ${row.verdict}`,
        );
    } finally {
      await closeDatabase();
      await drop();
    }
  }

  if (which !== "postgresql") await on("embedded");
  if (which !== "embedded") await on("postgresql");
  rmSync(options.dataDir, { recursive: true, force: true });
  process.exit(0);
}
