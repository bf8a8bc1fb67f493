/**
 * npm run bench:route — only the /mcp route benchmarks (bench/mcp-route.ts), on the embedded database and (when
 * reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-bench-route-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  QM_DATA_DIR: dataDir,
  QM_DEMO: "0",
  QM_SECRET: "bench-secret-bench-secret-bench-secret-01",
});
const { installDatabase, closeDatabase } = await import("@/server/db");
const { openDatabase } = await import("@/server/db/open");
const { applyMigrations } = await import("@/server/db/schema-engine");
const { benchMcpRoute } = await import("./mcp-route");

const PG_URL = process.env.QM_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const which = process.argv[2] ?? "both";

async function on(kind: "embedded" | "postgresql") {
  let drop = async () => {};
  let url: string | undefined;
  if (kind === "postgresql") {
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const name = `qm_bench_route_${Date.now()}`;
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
  const opened = await openDatabase(url ? { url } : { dataDir });
  await applyMigrations(opened.adapterFactory);
  installDatabase(opened);
  try {
    for (const row of await benchMcpRoute())
      console.log(`${kind.padEnd(10)} ${row.name.padEnd(56)} ${row.value.padEnd(80)} ${row.goal} ${row.verdict}`);
  } finally {
    await closeDatabase();
    await drop();
  }
}

if (which !== "postgresql") await on("embedded");
if (which !== "embedded") await on("postgresql");
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
