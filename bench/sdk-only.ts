/**
 * npm run bench:sdk — only the SDK Tool Host benchmark (bench/sdk-host.ts: an SDK Tool call
 * beside an MCP Connection's Tool call through the same /mcp), on the embedded database and
 * (when reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runOnDatabases } from "./on-databases";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-bench-sdk-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  QM_DATA_DIR: dataDir,
  QM_DEMO: "0",
  QM_SECRET: "bench-secret-bench-secret-bench-secret-01",
});
const { benchSdkHost } = await import("./sdk-host");

await runOnDatabases({ dataDir, label: "sdk", suite: () => benchSdkHost(), widths: [90, 80] });
