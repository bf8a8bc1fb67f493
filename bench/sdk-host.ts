/**
 * Calls per second through /mcp to one SDK Tool Host built with the SDK, from 50 agents
 * calling concurrently, with each call's latency (agent sends → agent has the host's
 * answer) at p50 and p99. The product's /mcp and Tool Host API are served by the app's own
 * routes in this process, over loopback HTTP; the host and the agents each run in a
 * process of their own.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { SYSTEM } from "@/server/actor";
import { assignSource, createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { createToolHost } from "@/server/domain/sources/sources";
import { startProduct } from "../tests/helpers/product-server";

const AGENTS = Number(process.env.BENCH_SDK_AGENTS ?? 50);
const DURATION_MS = Number(process.env.BENCH_SDK_HOST_MS ?? 10_000);

type Row = { name: string; value: string; goal: string; verdict: string };

function run(file: string, env: Record<string, string>, onLine: (line: string) => void) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, file)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    let i = out.indexOf("\n");
    while (i >= 0) {
      onLine(out.slice(0, i));
      out = out.slice(i + 1);
      i = out.indexOf("\n");
    }
  });
  return child;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export async function benchSdkHost(): Promise<Row[]> {
  const product = await startProduct();
  const { source, hostToken } = await createToolHost(SYSTEM, { name: `bench-sdk-host-${Date.now()}` });
  const host = run("sdk-host-process.ts", { QM_URL: product.url, QM_HOST_TOKEN: hostToken }, () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      host.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      host.once("exit", (code) => reject(new Error(`the benchmark's SDK Tool Host exited (${code})`)));
    });
    const identity = await createIdentity(SYSTEM, { name: `bench-sdk-agents-${Date.now()}` });
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
    const { value: agentToken } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });

    const result = await new Promise<{ calls: number; errors: number; wallMs: number; latencies: number[] }>(
      (resolve, reject) => {
        const agents = run(
          "sdk-agents.ts",
          { QM_URL: product.url, QM_AGENT_TOKEN: agentToken, AGENTS: String(AGENTS), DURATION_MS: String(DURATION_MS) },
          (line) => resolve(JSON.parse(line)),
        );
        agents.once("exit", (code) => code && reject(new Error(`the benchmark's agents exited (${code})`)));
      },
    );
    const sorted = result.latencies.sort((a, b) => a - b);
    const perSecond = result.calls / (result.wallMs / 1000);
    const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
    return [
      {
        name: `/mcp tools/call to an SDK Tool Host (one host, ${AGENTS} concurrent agents)`,
        value: `${perSecond.toFixed(0)} calls/s (p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}${result.errors ? `; ${result.errors} of ${result.calls} failed` : ""})`,
        goal: "reported",
        verdict: "—",
      },
    ];
  } finally {
    host.kill("SIGTERM");
    await product.close();
  }
}
