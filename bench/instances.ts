/**
 * /mcp throughput with one and with three instances on one PostgreSQL database: real
 * `scripts/start.ts` processes (production build), agents in a process of their own
 * (bench/sdk-agents.ts) calling a Tool of an MCP Connection through /mcp, spread round
 * robin over the instances. Everything — instances, agents, the Source's server and
 * PostgreSQL — shares this machine's CPUs, so the ratio says how much an instance's own
 * work limits throughput here, not how a fleet of machines would scale.
 *
 * `npm run bench:instances` prints these rows alone; `npm run bench` adds them to its table.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { SYSTEM } from "@/server/actor";
import { closeDatabase, installDatabase } from "@/server/db";
import { openDatabase } from "@/server/db/open";
import { checkNow } from "@/server/domain/catalog/checks";
import { assignSource, createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { createMcpConnection } from "@/server/domain/sources/sources";
import { canPinCpus, ensureBuilt, type Instance, startInstance } from "../tests/helpers/instances";
import { startSdkServer } from "../tests/helpers/mcp-servers";

const AGENTS = Number(process.env.BENCH_INSTANCE_AGENTS ?? 30);
const DURATION_MS = Number(process.env.BENCH_INSTANCE_MS ?? 10_000);

type Row = { name: string; value: string; goal: string; verdict: string };
type Result = { calls: number; errors: number; wallMs: number; latencies: number[] };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** A process's resident memory (Linux; NaN elsewhere). */
function residentMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function runAgents(urls: string[], token: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "sdk-agents.ts")], {
      env: {
        ...process.env,
        QM_URL: urls.join(","),
        QM_AGENT_TOKEN: token,
        AGENTS: String(AGENTS),
        DURATION_MS: String(DURATION_MS),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => {
      if (code) reject(new Error(`the benchmark's agents exited (${code})`));
      else resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Result);
    });
  });
}

async function withDatabase<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `qm_bench_instances_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
}

export async function benchInstances(adminUrl: string): Promise<Row[]> {
  ensureBuilt();
  return withDatabase(adminUrl, async (url) => {
    const instances: Instance[] = [];
    const source = await startSdkServer({
      catalog: () => [
        { name: "bench_echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
      ],
      onCall: (_name, args) => ({ content: [{ type: "text", text: `echo: ${String(args.text)}` }] }),
    });
    const quiet = { LOG_LEVEL: "warn", QM_SCHEDULER: "0" };
    // Instance i on CPU i mod the CPUs there are, each in a process group of its own: on
    // two vCPUs, one instance has one CPU and three share both (the agents, the Source and
    // PostgreSQL float over all of them), which is all such a machine can show.
    const cpus = os.availableParallelism();
    const cpuOf = (i: number) => (canPinCpus && cpus > 1 ? String(i % cpus) : undefined);
    try {
      instances.push(await startInstance({ name: "one", databaseUrl: url, env: quiet, cpus: cpuOf(0) }));
      await instances[0]?.waitReady();
      const opened = await openDatabase({ url });
      installDatabase(opened);
      const connection = await createMcpConnection(SYSTEM, { name: "bench-echo", url: source.url });
      await checkNow(SYSTEM, { id: connection.id });
      const identity = await createIdentity(SYSTEM, { name: "bench-instances" });
      await assignSource(SYSTEM, { identityId: identity.id, sourceId: connection.id });
      const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });

      // The machine's load says how much of it these processes had (a shared machine's other work competes).
      const load = [os.loadavg()[0] ?? 0];
      const one = await runAgents([instances[0]?.url ?? ""], token);
      for (const [i, n] of ["two", "three"].entries())
        instances.push(await startInstance({ name: n, databaseUrl: url, env: quiet, cpus: cpuOf(i + 1) }));
      await Promise.all(instances.map((i) => i.waitReady()));
      load.push(os.loadavg()[0] ?? 0);
      const three = await runAgents(
        instances.map((i) => i.url),
        token,
      );
      load.push(os.loadavg()[0] ?? 0);

      const rss = instances.map((i) => residentMiB(i.pid));
      const rate = (r: Result) => r.calls / (r.wallMs / 1000);
      const summary = (r: Result) => {
        const sorted = [...r.latencies].sort((a, b) => a - b);
        return `${rate(r).toFixed(0)} calls/s (p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms${r.errors ? `; ${r.errors} of ${r.calls} failed` : ""})`;
      };
      const pinning = cpuOf(0) === undefined ? "not pinned" : `CPUs ${instances.map((_, i) => cpuOf(i)).join(", ")}`;
      return [
        {
          name: `/mcp tools/call, 1 instance (${AGENTS} agents, ${cpus} CPUs, instance on CPU ${cpuOf(0) ?? "any"}, load ${load[0]?.toFixed(1)})`,
          value: summary(one),
          goal: "reported",
          verdict: "—",
        },
        {
          name: `/mcp tools/call, 3 instances on the same PostgreSQL (${pinning}, load ${Math.max(load[1] ?? 0, load[2] ?? 0).toFixed(1)})`,
          value: `${summary(three)}, ×${(rate(three) / rate(one)).toFixed(2)}`,
          goal: "reported",
          verdict: "—",
        },
        {
          name: "Resident memory of each instance after that run",
          value: rss.map((m) => `${m.toFixed(0)} MiB`).join(", "),
          goal: "reported",
          verdict: "—",
        },
      ];
    } finally {
      await Promise.all(instances.map((i) => i.stop()));
      await source.close();
      await closeDatabase();
    }
  });
}

// Run alone: `npm run bench:instances`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  // The instances share one secret, as deployed instances must (they inherit this environment).
  process.env.QM_SECRET ??= "bench-secret-bench-secret-bench-secret-01";
  const adminUrl = process.env.QM_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  benchInstances(adminUrl).then(
    (rows) => {
      for (const r of rows) console.log(`${r.name}: ${r.value}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
