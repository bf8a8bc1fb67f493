/**
 * What /mcp adds to a Tool Call, side by side in one run against the same loopback MCP
 * server (bench/echo-source.ts, its own process):
 *
 *   - direct: tools/call over an open session with the server (the SDK client);
 *   - bare hop: the same call through a pass-through node:http proxy (the floor of any
 *     gateway's extra hop);
 *   - /mcp: the same call through Quartermaster, served by the production front server
 *     (server/http/front.ts, /mcp served directly) in this process, to a pooled session.
 *
 * Sequential calls, interleaved so drifting load hits all three alike: p50, p99 and the
 * ratios (goal: /mcp p50 ≤ 1.5× and p99 ≤ 2× the bare hop). Then 50 agents (bench/sdk-agents.ts,
 * its own process) call through the bare hop and then through /mcp for 30 s each: calls/s,
 * p99, errors (goal ≥ 1,000/s, p99 < 100 ms, 0 errors, and ≥ 0.5× the hop's calls/s).
 */
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { trustedProxyList } from "@/env";
import { SYSTEM } from "@/server/actor";
import { runCatalogCheck } from "@/server/domain/catalog/check";
import { closeAllSourceSessions } from "@/server/domain/catalog/source-sessions";
import { assignSource, createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { setRateLimit } from "@/server/domain/rate-limits/config";
import { createMcpConnection } from "@/server/domain/sources/sources";
import { createFrontServer } from "@/server/http/front";
import { isMcpRequest, serveMcpDirect } from "@/server/http/mcp-direct";

type Row = { name: string; value: string; goal: string; verdict: string };

const CALLS = Number(process.env.BENCH_ROUTE_CALLS ?? 300);
const AGENTS = Number(process.env.BENCH_ROUTE_AGENTS ?? 50);
const DURATION_MS = Number(process.env.BENCH_ROUTE_MS ?? 30_000);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

function child(file: string, env: Record<string, string>) {
  return spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, file)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

function firstLine(proc: ReturnType<typeof child>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const i = out.indexOf("\n");
      if (i >= 0) resolve(out.slice(0, i));
    });
    proc.once("exit", (code) => reject(new Error(`${proc.spawnargs.at(-1)} exited (${code})`)));
  });
}

async function client(url: string, token?: string): Promise<Client> {
  const c = new Client({ name: "bench-agent", version: "1" });
  await c.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined,
    ),
  );
  return c;
}

export async function benchMcpRoute(): Promise<Row[]> {
  const echo = child("echo-source.ts", {});
  const front = createFrontServer(
    async (req, res) => {
      if (isMcpRequest(req)) return serveMcpDirect(req, res, false);
      res.writeHead(404).end();
    },
    { dev: false, trustedProxies: trustedProxyList([]), https: false },
  );
  try {
    const [sourceUrl, proxyUrl] = (await firstLine(echo)).split(" ") as [string, string];
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

    const source = await createMcpConnection(SYSTEM, { name: `bench-route-${Date.now()}`, url: sourceUrl });
    const check = await runCatalogCheck(source.id, "manual");
    if (check.status !== "succeeded") throw new Error("the route benchmark's Source failed its check");
    const identity = await createIdentity(SYSTEM, { name: `bench-route-agent-${Date.now()}` });
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
    const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });

    const routes = {
      direct: await client(sourceUrl),
      hop: await client(proxyUrl),
      mcp: await client(`${base}/mcp`, token),
    };
    const times: Record<keyof typeof routes, number[]> = { direct: [], hop: [], mcp: [] };
    for (let i = -20; i < CALLS; i++) {
      for (const [name, c] of Object.entries(routes) as [keyof typeof routes, Client][]) {
        const text = `call ${i}`;
        const t0 = performance.now();
        const result = await c.callTool({ name: "bench_echo", arguments: { text } });
        const took = performance.now() - t0;
        if ((result.content as { text?: string }[])[0]?.text !== `echo: ${text}`)
          throw new Error(`${name}: unexpected answer ${JSON.stringify(result).slice(0, 200)}`);
        if (i >= 0) times[name].push(took); // the first 20 warm up connections and code
      }
    }
    await Promise.all(Object.values(routes).map((c) => c.close()));
    const p50 = (k: keyof typeof routes) => percentile(times[k], 50);
    const p99 = (k: keyof typeof routes) => percentile(times[k], 99);
    const ratio = p50("mcp") / p50("hop");

    type Load = { calls: number; errors: number; wallMs: number; latencies: number[] };
    const underLoad = (env: Record<string, string>) =>
      new Promise<Load>((resolve, reject) => {
        const agents = child("sdk-agents.ts", { AGENTS: String(AGENTS), DURATION_MS: String(DURATION_MS), ...env });
        firstLine(agents).then((line) => resolve(JSON.parse(line)), reject);
      });
    // The same agents, one after the other, through the bare hop and through /mcp.
    const hopLoad = await underLoad({ HOP_URL: proxyUrl });
    const load = await underLoad({ QM_URL: base, QM_AGENT_TOKEN: token });
    // A calls-a-minute limit no agent reaches: what counting each call costs.
    await setRateLimit(SYSTEM, {
      subjectType: "identity",
      subjectId: identity.id,
      perMinute: 1_000_000,
      concurrent: null,
    });
    const limited = await underLoad({ QM_URL: base, QM_AGENT_TOKEN: token });
    const limitedPerSecond = limited.calls / (limited.wallMs / 1000);
    const hopPerSecond = hopLoad.calls / (hopLoad.wallMs / 1000);
    const perSecond = load.calls / (load.wallMs / 1000);
    const loadP99 = percentile(load.latencies, 99);
    const loadMet = perSecond >= 1000 && loadP99 < 100 && load.errors === 0;
    const served = perSecond / hopPerSecond;
    return [
      {
        name: "tools/call p50 / p99: direct over an open session",
        value: `${ms(p50("direct"))} / ${ms(p99("direct"))}`,
        goal: "baseline",
        verdict: "—",
      },
      {
        name: "  through a bare node:http pass-through proxy",
        value: `${ms(p50("hop"))} / ${ms(p99("hop"))} (${(p50("hop") / p50("direct")).toFixed(2)}× direct)`,
        goal: "baseline",
        verdict: "—",
      },
      {
        name: "  through /mcp (pooled session to the Source)",
        value: `${ms(p50("mcp"))} / ${ms(p99("mcp"))} (${ratio.toFixed(2)}× the bare hop, ${(p50("mcp") / p50("direct")).toFixed(2)}× direct)`,
        goal: "p50 ≤ 1.5×, p99 ≤ 2× the bare hop",
        verdict: ratio <= 1.5 && p99("mcp") <= 2 * p99("hop") ? "met" : "MISSED",
      },
      {
        name: `bare hop tools/call, ${AGENTS} concurrent agents for ${Math.round(DURATION_MS / 1000)} s`,
        value: `${hopPerSecond.toFixed(0)} calls/s, p50 ${ms(percentile(hopLoad.latencies, 50))}, p99 ${ms(percentile(hopLoad.latencies, 99))}, ${hopLoad.errors} errors of ${hopLoad.calls}`,
        goal: "baseline",
        verdict: "—",
      },
      {
        name: `/mcp tools/call, ${AGENTS} concurrent agents for ${Math.round(DURATION_MS / 1000)} s`,
        value: `${perSecond.toFixed(0)} calls/s, p50 ${ms(percentile(load.latencies, 50))}, p99 ${ms(loadP99)}, ${load.errors} errors of ${load.calls}`,
        goal: "≥ 1,000/s, p99 < 100 ms, 0 errors",
        verdict: loadMet ? "met" : "MISSED",
      },
      {
        name: "  the same with a calls-a-minute limit on the identity",
        value: `${limitedPerSecond.toFixed(0)} calls/s (${(limitedPerSecond / perSecond).toFixed(2)}× without), p99 ${ms(percentile(limited.latencies, 99))}, ${limited.errors} errors of ${limited.calls}`,
        goal: "within 10% of it without",
        verdict: limitedPerSecond >= 0.9 * perSecond && limited.errors === 0 ? "met" : "MISSED",
      },
      {
        name: "  /mcp's calls/s against the bare hop's",
        value: `${served.toFixed(2)}×`,
        goal: "≥ 0.5× the bare hop",
        verdict: served >= 0.5 ? "met" : "MISSED",
      },
    ];
  } finally {
    closeAllSourceSessions();
    front.closeAllConnections();
    front.close();
    echo.kill("SIGTERM");
  }
}
