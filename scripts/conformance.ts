/**
 * npm run conformance — the official MCP conformance suite's server scenarios, for the
 * 2025-11-25 and the 2026-07-28 revisions, against /mcp of a started Quartermaster.
 *
 * Quartermaster here is the production HTTP front (server/http/front.ts: body limits,
 * security headers, /mcp served directly) on an embedded database in a temporary folder,
 * with one Agent Identity that holds one Source: scripts/conformance-fixtures.ts, a loopback
 * server of the Tools the tasks scenarios call (decision 0101). The suite cannot send an Authorization
 * header, so a loopback proxy adds the identity's token; it passes everything else through
 * unchanged (Host and Origin included, for the DNS-rebinding scenario), and its address is
 * Quartermaster's QM_BASE_URL, as a deployment behind a proxy would have it.
 *
 * The suite needs Node 22, the project's own floor, so it runs on the Node running this script. Scenarios that cannot apply to an
 * MCP gateway are listed with the reason in conformance/baseline-<revision>.yml: the suite
 * fails the run on any other failure, and on a listed scenario that starts to pass.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const REVISIONS = (process.env.QM_CONFORMANCE_REVISIONS ?? "2025-11-25,2026-07-28").split(",").filter(Boolean);
// The tasks extension's scenarios (io.modelcontextprotocol/tasks, docs/decisions/0088): no
// revision requires an extension, so they run one by one beside the revisions' own.
const TASK_SCENARIOS = (
  process.env.QM_CONFORMANCE_TASKS ??
  "tasks-lifecycle,tasks-capability-negotiation,tasks-wire-fields,tasks-request-state-removal,tasks-mrtr-input,tasks-request-headers,tasks-dispatch-and-envelope,tasks-status-notifications,tasks-required-task-error,tasks-mrtr-composition"
)
  .split(",")
  .filter(Boolean);
// One scenario only, for reading its failure (QM_CONFORMANCE_SCENARIO=caching).
const ONLY = process.env.QM_CONFORMANCE_SCENARIO;
const root = path.join(import.meta.dirname, "..");

// The proxy's port is chosen first: it is the URL the suite uses, so it is the base URL.
const proxy = http.createServer();
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyPort = (proxy.address() as AddressInfo).port;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-conformance-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
  QM_DATA_DIR: dataDir,
  QM_SECRET: "conformance-secret-conformance-secret-01",
  QM_DEMO: "0",
  QM_BASE_URL: `http://127.0.0.1:${proxyPort}`,
});

const { SYSTEM } = await import("@/server/actor");
const { installDatabase, closeDatabase, getDb } = await import("@/server/db");
const { openDatabase } = await import("@/server/db/open");
const { applyMigrations } = await import("@/server/db/schema-engine");
const { createIdentity } = await import("@/server/domain/identities/identities");
const { createToken } = await import("@/server/domain/identities/tokens");
const { trustedProxyList } = await import("@/env");
const { createFrontServer } = await import("@/server/http/front");
const { isMcpRequest, serveMcpDirect } = await import("@/server/http/mcp-direct");
const { createMcpConnection } = await import("@/server/domain/sources/sources");
const { checkNow } = await import("@/server/domain/catalog/checks");
const { assignSource } = await import("@/server/domain/identities/identities");
const { startConformanceFixtures } = await import("./conformance-fixtures");

async function main(): Promise<number> {
  const opened = await openDatabase({ dataDir });
  await applyMigrations(opened.adapterFactory);
  installDatabase(opened);
  const identity = await createIdentity(SYSTEM, { name: "conformance" });
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "conformance" });
  // The suite's fixture Tools, on a Source the identity holds: its tasks scenarios call them by
  // their names through /mcp, and Quartermaster runs them on that Source (decision 0101).
  const fixtures = await startConformanceFixtures();
  const source = await createMcpConnection(SYSTEM, {
    name: "conformance-fixtures",
    url: fixtures.url,
    reviewPolicy: "trust",
  });
  const check = await checkNow(SYSTEM, { id: source.id });
  if (check.status !== "succeeded")
    throw new Error(`The fixture Source's check ${check.status}: ${JSON.stringify(check)}`);
  await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
  // The scenarios call the Tools by their native names: each must be offered under it.
  const offered = await (await getDb()).tool.findMany({
    where: { sourceId: source.id },
    select: { nativeName: true, modelFacingName: true },
  });
  const renamed = offered.filter((t) => t.modelFacingName !== t.nativeName);
  if (offered.length < 7 || renamed.length)
    throw new Error(`The fixture Tools are not all offered by their names: ${JSON.stringify(offered)}`);

  const front = createFrontServer(
    async (req, res) => {
      if (isMcpRequest(req)) return serveMcpDirect(req, res, false);
      res.writeHead(404).end();
    },
    { dev: false, trustedProxies: trustedProxyList([]), https: false },
  );
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const frontPort = (front.address() as AddressInfo).port;

  proxy.on("request", (req, res) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: frontPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });

  let failed = 0;
  try {
    for (const revision of REVISIONS) {
      console.log(`\n── MCP conformance, server scenarios required by ${revision} ──`);
      const scenarios = ONLY ? ["--scenario", ONLY, "--spec-version", revision] : ["--requirements", revision];
      if ((await suite(proxyPort, scenarios, `baseline-${revision}.yml`, `qm-conformance-${revision}`)) !== 0) failed++;
    }
    if (!ONLY && TASK_SCENARIOS.length) console.log("\n── MCP conformance, the tasks extension's scenarios ──");
    for (const scenario of ONLY ? [] : TASK_SCENARIOS)
      if ((await suite(proxyPort, ["--scenario", scenario], "baseline-tasks.yml", "qm-conformance-tasks")) !== 0)
        failed++;
  } finally {
    front.closeAllConnections();
    proxy.closeAllConnections();
    front.close();
    proxy.close();
    await fixtures.close();
    await closeDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

/** One run of the suite against /mcp, judged by a baseline of expected failures. */
function suite(proxyPort: number, scenarios: string[], baseline: string, out: string): Promise<number> {
  return run("npx", [
    "-y",
    "-p",
    SUITE,
    "conformance",
    "server",
    "--url",
    `http://127.0.0.1:${proxyPort}/mcp`,
    ...scenarios,
    "--expected-failures",
    path.join(root, "conformance", baseline),
    "--timeout",
    "15000",
    // Every check's verdict and details, for reading a failure (not committed).
    "-o",
    path.join(os.tmpdir(), out),
  ]);
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", cwd: root });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
