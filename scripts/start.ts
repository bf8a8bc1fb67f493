/**
 * `npm start`: build if needed, migrate, seed the demo on a new database, start the
 * demo MCP server, serve, then start the demo's SDK Tool Host process (it registers with
 * the running app). `npm run dev` runs the same with Next's dev server.
 */
import { env } from "@/env";
import { closeDatabase } from "@/server/db";
import { DemoPortTaken, startEverythingServer } from "@/server/demo/everything-server";
import { type DemoToolHost, startDemoToolHost } from "@/server/demo/tool-host-launcher";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { startCallLogSweeper } from "@/server/domain/calls/sweeper";
import { releaseHeldLeases } from "@/server/domain/catalog/lease";
import { startScheduler } from "@/server/domain/catalog/scheduler";
import { seedDemo } from "@/server/domain/demo/seed";
import { startMemoryScheduler } from "@/server/domain/memory/scheduler";
import { duringStartup, prepareDatabase } from "@/server/domain/system/bootstrap";
import { warmSearchSegments } from "@/server/domain/tool-selection/segments";
import { leavePool } from "@/server/http/drain";
import { startHttpServer } from "@/server/http/serve";
import { INSTANCE_ID, startDraining } from "@/server/instance";
import { INSTANCE_LIMITS } from "@/server/limits";
import { log } from "@/server/log";
import { startTracingFromEnv, stopTracing } from "@/server/observability/tracing";
import { buildIfNeededWithProgress } from "./build-if-needed";
import { watchParent } from "./parent-watch";

const ROOT = process.cwd();
const dev = process.argv.includes("--dev");

/**
 * On a stable port (PORT + 1 unless QM_DEMO_MCP_PORT says), so a Connection someone adds
 * with the printed URL still works after a restart. Only an unconfigured port that is
 * taken falls back to a free one.
 */
async function startDemoMcpServer() {
  if (env.QM_DEMO_MCP_PORT !== undefined) return startEverythingServer(env.QM_DEMO_MCP_PORT);
  const preferred = env.PORT > 0 && env.PORT < 65535 ? env.PORT + 1 : 0;
  try {
    return await startEverythingServer(preferred);
  } catch (error) {
    if (!(error instanceof DemoPortTaken)) throw error;
    log.warn({ port: preferred }, "the demo MCP server's usual port is taken; using another (set QM_DEMO_MCP_PORT)");
    return startEverythingServer(0);
  }
}

// Stopped on a failed start too (a taken port, say): it must not outlive this process.
let demoMcp: Awaited<ReturnType<typeof startEverythingServer>> | null = null;
let demoHost: DemoToolHost | null = null;

async function main() {
  if (!dev && env.QM_BUILD) await buildIfNeededWithProgress(ROOT);
  await startTracingFromEnv();
  const { firstRun } = await prepareDatabase();
  if (env.DATABASE_URL && !env.QM_SECRET)
    log.warn(
      "QM_SECRET is not set: this instance signs sessions and seals Source headers with a secret generated in its own data folder; other instances on this database must share one QM_SECRET (docs/deploy.md)",
    );
  demoMcp = env.QM_DEMO ? await startDemoMcpServer() : null;
  // Another instance starting beside this one may be seeding: seedDemo sees its mark once it is done.
  const demoUrl = demoMcp?.url;
  const demo = demoUrl ? await duringStartup(() => seedDemo({ firstRun, demoMcpUrl: demoUrl })) : null;
  if (demoMcp && !demo) {
    await demoMcp.stop();
    demoMcp = null;
  }

  const server = await startHttpServer({ dev, host: env.HOST, port: env.PORT, dir: ROOT });
  const scheduler = env.QM_SCHEDULER ? startScheduler() : null;
  const memoryScheduler = env.QM_SCHEDULER ? startMemoryScheduler() : null;
  const callLogSweeper = env.QM_SCHEDULER ? startCallLogSweeper() : null;
  // find_tools' per-Source indexes, built now rather than by the first agent that searches
  // (decision 0065); /mcp is served in this process, so the segments warmed here answer it.
  void warmSearchSegments().then(
    (sources) => log.info({ sources }, "find_tools indexes warmed"),
    (err) => log.warn({ err }, "could not warm find_tools' indexes"),
  );
  // The demo's SDK Tool Host registers over HTTP, so it starts once the app is serving.
  demoHost = demo?.billingHostToken ? await startDemoToolHost({ url: server.url, token: demo.billingHostToken }) : null;
  log.info(
    { url: server.url, database: env.DATABASE_URL ? "postgresql" : "embedded", instance: INSTANCE_ID },
    "Quartermaster is serving",
  );
  const lines = [``, `  Quartermaster is running at ${server.url}`];
  if (demo)
    lines.push(
      `  Demo sign-in (admin): ${demo.email} / ${demo.password}`,
      ...(demo.people ?? []).map(
        (p) => `  Demo ${p.role}:${" ".repeat(Math.max(1, 9 - p.role.length))}${p.email} / ${p.password}`,
      ),
      `  Demo MCP server (a live Source): ${demoMcp?.url}`,
      ...(demoHost
        ? [
            `  Demo SDK Tool Host (a live Source): "Billing service (demo)", a process built with the Tool Host SDK (sdk/)`,
          ]
        : []),
      ...(demo.agentToken
        ? [`  Demo agent at ${server.url}/mcp (Research agent): Authorization: Bearer ${demo.agentToken}`]
        : []),
    );
  else if (env.QM_BOOTSTRAP_ADMIN_EMAIL) lines.push(`  Sign in as ${env.QM_BOOTSTRAP_ADMIN_EMAIL}`);
  else
    lines.push(
      `  No demo data${env.DATABASE_URL ? " (on PostgreSQL only with QM_DEMO=1)" : ""}. Create an admin: npm run qm -- create-admin --email you@example.com`,
    );
  lines.push(``);
  console.log(lines.join("\n"));

  // SIGTERM (an orchestrator, a rolling upgrade) or Ctrl-C: drain within the grace period.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + env.QM_SHUTDOWN_GRACE_SECONDS * 1000;
    // However the steps below go, the process is gone by the end of the grace period.
    setTimeout(
      () => {
        log.error("grace period over and the shutdown has not finished; exiting");
        process.exit(1);
      },
      deadline - Date.now() + 2_000,
    );
    log.info(
      { signal, graceSeconds: env.QM_SHUTDOWN_GRACE_SECONDS },
      "draining: not ready any more, finishing the requests and checks in flight",
    );
    startDraining();
    scheduler?.pause();
    // The demo host first: it finishes its calls in flight while the app can still take their results.
    await demoHost?.stop();
    // At most a third of the grace period goes to leaving the pool: the rest is for finishing.
    const left = await leavePool(server.traffic, {
      maxMs: Math.min(INSTANCE_LIMITS.DRAIN_LEAVE_POOL_MAX_MS.value, (deadline - Date.now()) / 3),
    });
    log.info({ waitedMs: left.waitedMs, inFlight: server.traffic.inFlight() }, "left the pool; no new connections");
    // Requests and checks finish side by side; both are cut a moment before the deadline,
    // leaving time to release the leases.
    await Promise.all([
      server.close(deadline - 2_000),
      scheduler?.stop(deadline - 2_000),
      memoryScheduler?.stop(deadline - 2_000),
      callLogSweeper?.stop(),
    ]);
    // The calls answered last are still in memory; they reach the call log before the database closes.
    await flushCallLog();
    // Leases and the database first: a trace collector that is down must not keep other
    // instances from taking over this one's checks. The last spans get a bounded moment.
    const released = await releaseHeldLeases().catch(() => 0);
    if (released) log.info({ released }, "released the leases still held");
    await demoMcp?.stop();
    await closeDatabase();
    await stopTracing();
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  watchParent(() => {
    log.warn({ npm: "gone" }, "npm, which started this server, is gone; draining as on SIGTERM");
    void stop("parent gone");
  });
}

main().catch(async (error: unknown) => {
  await demoHost?.stop().catch(() => {});
  await demoMcp?.stop().catch(() => {});
  console.error(error instanceof Error ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
