/**
 * npm run bench:route — only the /mcp route benchmarks (bench/mcp-route.ts), on the embedded database and (when
 * reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { benchEnvironment, runOnDatabases } from "./on-databases";

const dataDir = benchEnvironment("route");
const { benchMcpRoute } = await import("./mcp-route");

await runOnDatabases({ dataDir, label: "route", suite: () => benchMcpRoute(), widths: [70, 84] });
