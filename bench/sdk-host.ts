/**
 * A call to an SDK Tool beside a call to an MCP Connection's Tool, through the same /mcp in
 * the same run (issue 32 item 7; goal: the SDK Tool's p50 ≤ 2× the MCP Connection's).
 *
 * The product's /mcp and Tool Host API are served by the app's own routes in this process,
 * over loopback HTTP. The SDK Tool Host (bench/sdk-host-process.ts: built with the SDK, its
 * defaults, a Tool that answers at once), the MCP Connection's server (bench/echo-source.ts:
 * the same Tool over MCP) and the concurrent agents (bench/sdk-agents.ts) each run in a
 * process of their own.
 *
 *   - one agent, sequential: the two Tools called alternately (so drifting load hits both
 *     alike), latency from the agent sending to the agent holding the answer, p50 and p99;
 *   - AGENTS agents at once for DURATION_MS against each in turn: calls/s, p50, p99.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { runCatalogCheck } from "@/server/domain/catalog/check";
import { closeAllSourceSessions } from "@/server/domain/catalog/source-sessions";
import { assignSource, createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { createMcpConnection, createToolHost } from "@/server/domain/sources/sources";
import { startProduct } from "../tests/helpers/product-server";

const AGENTS = Number(process.env.BENCH_SDK_AGENTS ?? 50);
const DURATION_MS = Number(process.env.BENCH_SDK_HOST_MS ?? 10_000);
const CALLS = Number(process.env.BENCH_SDK_CALLS ?? 200);
const GOAL = 2;

type Row = { name: string; value: string; goal: string; verdict: string };
type Load = { calls: number; errors: number; wallMs: number; latencies: number[] };

function run(file: string, env: Record<string, string>) {
  return spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, file)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

function firstLine(child: ReturnType<typeof run>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const i = out.indexOf("\n");
      if (i >= 0) resolve(out.slice(0, i));
    });
    child.once("exit", (code) => reject(new Error(`${child.spawnargs.at(-1)} exited (${code})`)));
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

/** An identity holding only `sourceId`, its agent token, and the model-facing name of the Source's bench_echo. */
async function agentFor(sourceId: string, label: string) {
  const identity = await createIdentity(SYSTEM, { name: `bench-${label}-${Date.now()}` });
  await assignSource(SYSTEM, { identityId: identity.id, sourceId });
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });
  const db = await getDb();
  const tool = await db.tool.findFirstOrThrow({
    where: { sourceId, nativeName: "bench_echo" },
    select: { modelFacingName: true },
  });
  if (!tool.modelFacingName) throw new Error(`the benchmark's ${label} Tool is offered to no model`);
  return { token, tool: tool.modelFacingName };
}

export async function benchSdkHost(): Promise<Row[]> {
  const product = await startProduct();
  const echo = run("echo-source.ts", {});
  const { source: hostSource, hostToken } = await createToolHost(SYSTEM, { name: `bench-sdk-host-${Date.now()}` });
  const host = run("sdk-host-process.ts", { QM_URL: product.url, QM_HOST_TOKEN: hostToken });
  const clients: Client[] = [];
  try {
    const [echoUrl] = (await firstLine(echo)).split(" ") as [string];
    await firstLine(host); // "ready": registered
    const connection = await createMcpConnection(SYSTEM, { name: `bench-sdk-mcp-${Date.now()}`, url: echoUrl });
    if ((await runCatalogCheck(connection.id, "manual")).status !== "succeeded")
      throw new Error("the benchmark's MCP Connection failed its check");
    const routes = {
      sdk: await agentFor(hostSource.id, "sdk"),
      mcp: await agentFor(connection.id, "mcp"),
    };

    // ── one agent, the two Tools alternately ──
    const callers = {} as Record<keyof typeof routes, (text: string) => Promise<void>>;
    for (const [kind, route] of Object.entries(routes) as [keyof typeof routes, (typeof routes)["sdk"]][]) {
      const client = new Client({ name: `bench-${kind}-agent`, version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${product.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${route.token}` } },
        }),
      );
      clients.push(client);
      callers[kind] = async (text) => {
        const result = await client.callTool({ name: route.tool, arguments: { text } });
        if ((result.content as { text?: string }[])[0]?.text !== `echo: ${text}`)
          throw new Error(`${kind}: unexpected answer ${JSON.stringify(result).slice(0, 300)}`);
      };
    }
    const times: Record<keyof typeof routes, number[]> = { sdk: [], mcp: [] };
    for (let i = -20; i < CALLS; i++)
      for (const kind of ["sdk", "mcp"] as const) {
        const t0 = performance.now();
        await callers[kind](`call ${i}`);
        if (i >= 0) times[kind].push(performance.now() - t0); // the first 20 warm up connections and code
      }

    // ── AGENTS agents at once, against each in turn ──
    const underLoad = async (route: (typeof routes)["sdk"]): Promise<Load> => {
      const agents = run("sdk-agents.ts", {
        QM_URL: product.url,
        QM_AGENT_TOKEN: route.token,
        TOOL_NAME: route.tool,
        AGENTS: String(AGENTS),
        DURATION_MS: String(DURATION_MS),
      });
      return JSON.parse(await firstLine(agents)) as Load;
    };
    const load = { mcp: await underLoad(routes.mcp), sdk: await underLoad(routes.sdk) };

    const one = (kind: keyof typeof routes, p: number) => percentile(times[kind], p);
    const many = (kind: keyof typeof routes, p: number) => percentile(load[kind].latencies, p);
    const perSecond = (kind: keyof typeof routes) => load[kind].calls / (load[kind].wallMs / 1000);
    const failed = (kind: keyof typeof routes) =>
      load[kind].errors ? `; ${load[kind].errors} of ${load[kind].calls} failed` : "";
    const ratioOne = one("sdk", 50) / one("mcp", 50);
    const ratioMany = many("sdk", 50) / many("mcp", 50);
    return [
      {
        name: "/mcp tools/call p50 / p99, one agent: an MCP Connection's Tool",
        value: `${ms(one("mcp", 50))} / ${ms(one("mcp", 99))}`,
        goal: "baseline",
        verdict: "—",
      },
      {
        name: "  the same Tool on an SDK Tool Host (built with the SDK)",
        value: `${ms(one("sdk", 50))} / ${ms(one("sdk", 99))} (p50 ${ratioOne.toFixed(2)}× the MCP Connection's)`,
        goal: `p50 ≤ ${GOAL}× the MCP Connection's`,
        verdict: ratioOne <= GOAL && !load.sdk.errors ? "met" : "MISSED",
      },
      {
        name: `/mcp tools/call, ${AGENTS} concurrent agents for ${Math.round(DURATION_MS / 1000)} s: an MCP Connection's Tool`,
        value: `${perSecond("mcp").toFixed(0)} calls/s, p50 ${ms(many("mcp", 50))}, p99 ${ms(many("mcp", 99))}${failed("mcp")}`,
        goal: "baseline",
        verdict: "—",
      },
      {
        name: "  the same Tool on an SDK Tool Host",
        value: `${perSecond("sdk").toFixed(0)} calls/s, p50 ${ms(many("sdk", 50))}, p99 ${ms(many("sdk", 99))} (p50 ${ratioMany.toFixed(2)}× the MCP Connection's)${failed("sdk")}`,
        goal: `p50 ≤ ${GOAL}× the MCP Connection's`,
        verdict: ratioMany <= GOAL && !load.sdk.errors ? "met" : "MISSED",
      },
    ];
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    closeAllSourceSessions();
    host.kill("SIGTERM");
    echo.kill("SIGTERM");
    await product.close();
  }
}
