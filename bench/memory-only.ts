/**
 * npm run bench:memory — only the memory benchmarks, on the embedded database and (when
 * reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { benchEnvironment, runOnDatabases } from "./on-databases";

const dataDir = benchEnvironment("memory");
const { memorySuite } = await import("./memory");

await runOnDatabases({ dataDir, label: "memory", suite: memorySuite, widths: [60, 28] });
