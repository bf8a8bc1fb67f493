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
 *
 * Then the requests that carry no call: initialize, server/discover and tools/list of a
 * Source of 500 Tools (one page), sent as raw JSON-RPC through the bare hop to that Source
 * and through /mcp to an identity holding only it, interleaved: p50 over the hop's (goal ≤ 5 ms).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { trustedProxyList } from "@/env";
import { SYSTEM } from "@/server/actor";
import { runCatalogCheck } from "@/server/domain/catalog/check";
import { closeAllSourceSessions } from "@/server/domain/catalog/source-sessions";
import { assignSource, createIdentity, updateIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { setRateLimit } from "@/server/domain/rate-limits/config";
import { createMcpConnection } from "@/server/domain/sources/sources";
import { createFrontServer } from "@/server/http/front";
import { isMcpRequest, serveMcpDirect } from "@/server/http/mcp-direct";

type Row = { name: string; value: string; goal: string; verdict: string };

const CALLS = Number(process.env.BENCH_ROUTE_CALLS ?? 300);
const AGENTS = Number(process.env.BENCH_ROUTE_AGENTS ?? 50);
const DURATION_MS = Number(process.env.BENCH_ROUTE_MS ?? 30_000);
const LIST_CALLS = Number(process.env.BENCH_ROUTE_LIST_CALLS ?? 100);
/** A folder: the product's CPU profile under the 50 agents through /mcp is written there (.cpuprofile). */
const PROFILE_DIR = process.env.BENCH_ROUTE_PROFILE;
const MODERN = "2026-07-28";
const LEGACY = "2025-06-18";

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

/** `run` under the CPU profiler of this process (the product's), when BENCH_ROUTE_PROFILE names a folder. */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return run();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  try {
    return await run();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    const file = path.join(PROFILE_DIR, `route-${process.argv[2] ?? "both"}-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.error(`profile: ${file}`);
  }
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
    const [sourceUrl, proxyUrl, listerUrl, listerProxyUrl] = (await firstLine(echo)).split(" ") as [
      string,
      string,
      string,
      string,
    ];
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
    const greetingRows = await greetings(base, listerUrl, listerProxyUrl);
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
    const load = await profiled(() => underLoad({ QM_URL: base, QM_AGENT_TOKEN: token }));
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
      ...greetingRows,
    ];
  } finally {
    closeAllSourceSessions();
    front.closeAllConnections();
    front.close();
    echo.kill("SIGTERM");
  }
}

/** One raw JSON-RPC request of `revision`, as an agent's client sends it. */
function rpc(revision: string, method: string, params: Record<string, unknown> = {}) {
  const modern = revision === MODERN;
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: modern
      ? {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "bench-agent", version: "1" },
          },
        }
      : method === "initialize"
        ? { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench-agent", version: "1" }, ...params }
        : params,
  };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(modern ? { "mcp-protocol-version": MODERN, "mcp-method": method } : {}),
    ...(!modern && method !== "initialize" ? { "mcp-protocol-version": LEGACY } : {}),
  };
  return { body: JSON.stringify(body), headers };
}

/**
 * initialize, server/discover and tools/list of a 500-Tool page, through the bare hop and
 * through /mcp, interleaved; each answer is read whole and checked.
 */
async function greetings(base: string, listerUrl: string, hopUrl: string): Promise<Row[]> {
  const source = await createMcpConnection(SYSTEM, { name: `bench-list-${Date.now()}`, url: listerUrl });
  const check = await runCatalogCheck(source.id, "manual");
  if (check.status !== "succeeded") throw new Error("the listing benchmark's Source failed its check");
  const identity = await createIdentity(SYSTEM, { name: `bench-list-agent-${Date.now()}` });
  // Listed whole whatever the listing budget (otherwise an identity of 500 Tools is offered a selection).
  await updateIdentity(SYSTEM, { id: identity.id, exposure: "all" });
  await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });
  const cases: { name: string; revision: string; method: string; tools?: boolean }[] = [
    { name: `initialize (${LEGACY})`, revision: LEGACY, method: "initialize" },
    { name: `server/discover (${MODERN})`, revision: MODERN, method: "server/discover" },
    { name: `tools/list, 500 Tools (${MODERN})`, revision: MODERN, method: "tools/list", tools: true },
    { name: `tools/list, 500 Tools (${LEGACY})`, revision: LEGACY, method: "tools/list", tools: true },
  ];
  const send = async (url: string, auth: string | null, c: (typeof cases)[number]) => {
    const { body, headers } = rpc(c.revision, c.method);
    const t0 = performance.now();
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: auth ? { ...headers, authorization: `Bearer ${auth}` } : headers,
    });
    const text = await response.text();
    const took = performance.now() - t0;
    // The SDK's stateless fallback answers on an event stream: its data line is the message.
    const json = text.startsWith("{") ? text : (text.split("\n").find((l) => l.startsWith("data: ")) ?? "").slice(6);
    const answer = JSON.parse(json || "{}") as { result?: { tools?: unknown[] } };
    // /mcp's first page is 500 Tools, the built-ins first (MCP_TOOLS_PAGE).
    if (!response.ok || !answer.result || (c.tools && (answer.result.tools?.length ?? 0) < 500))
      throw new Error(`${c.name} via ${url}: unexpected answer ${response.status} ${text.slice(0, 200)}`);
    return took;
  };
  const rows: Row[] = [];
  for (const c of cases) {
    const hop: number[] = [];
    const mcp: number[] = [];
    for (let i = -10; i < LIST_CALLS; i++) {
      const h = await send(hopUrl, null, c);
      const m = await send(`${base}/mcp`, token, c);
      if (i < 0) continue;
      hop.push(h);
      mcp.push(m);
    }
    const over = percentile(mcp, 50) - percentile(hop, 50);
    rows.push({
      name: `${c.name}: /mcp vs the bare hop, p50 (p99)`,
      value: `${ms(percentile(mcp, 50))} (${ms(percentile(mcp, 99))}) vs ${ms(percentile(hop, 50))} (${ms(percentile(hop, 99))}): ${over >= 0 ? "+" : ""}${over.toFixed(2)} ms`,
      goal: "p50 ≤ 5 ms over the bare hop",
      verdict: over <= 5 ? "met" : "MISSED",
    });
  }
  return rows;
}
