/**
 * npm run bench:route — only the /mcp route benchmarks (bench/mcp-route.ts), on the embedded database and (when
 * reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runOnDatabases } from "./on-databases";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-bench-route-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  QM_DATA_DIR: dataDir,
  QM_DEMO: "0",
  QM_SECRET: "bench-secret-bench-secret-bench-secret-01",
});
const { benchMcpRoute } = await import("./mcp-route");

await runOnDatabases({ dataDir, label: "route", suite: () => benchMcpRoute(), widths: [56, 80] });
