/**
 * npm run bench:memory — only the memory benchmarks, on the embedded database and (when
 * reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runOnDatabases } from "./on-databases";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-bench-memory-"));
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", QM_DATA_DIR: dataDir, QM_DEMO: "0" });
const { memorySuite } = await import("./memory");

await runOnDatabases({ dataDir, label: "memory", suite: memorySuite, widths: [60, 28] });
