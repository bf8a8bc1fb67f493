/**
 * npm run bench:sdk — only the SDK Tool Host benchmark (bench/sdk-host.ts: an SDK Tool call
 * beside an MCP Connection's Tool call through the same /mcp), on the embedded database and
 * (when reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { benchEnvironment, runOnDatabases } from "./on-databases";

const dataDir = benchEnvironment("sdk");
const { benchSdkHost } = await import("./sdk-host");

await runOnDatabases({ dataDir, label: "sdk", suite: () => benchSdkHost(), widths: [90, 80] });
