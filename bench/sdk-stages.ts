/**
 * npm run bench:sdk-stages — where one sequential agent's SDK Tool call spends its time, beside
 * an MCP Connection's Tool call through the same /mcp: per-stage medians, the database statements
 * and the HTTP requests into the product per call (issue 32 item 7, docs/benchmarks.md).
 *
 * Everything runs in this one process (the product's routes over loopback HTTP, the SDK Tool
 * Host built with the SDK, the agent's raw /mcp requests; the MCP Connection's server in a
 * process of its own), so every timestamp is on one clock. Statements are counted where the
 * database driver sends them (PGlite's query/exec, pg's Client.query), transactions' BEGIN and
 * COMMIT included.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { benchEnvironment, runOnDatabases } from "./on-databases";

const dataDir = benchEnvironment("stages");
const CALLS = Number(process.env.BENCH_SDK_CALLS ?? 100);

type Mark = { t: number; what: string };
const marks: Mark[] = [];
const mark = (what: string) => marks.push({ t: performance.now(), what });

// Statements, counted where they leave for the database.
const { PGlite } = await import("@electric-sql/pglite");
const pg = (await import("pg")).default;
for (const [proto, names] of [
  [PGlite.prototype, ["query", "exec"]],
  [pg.Client.prototype, ["query"]],
] as const)
  for (const name of names) {
    const original = (proto as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
    if (!original) continue;
    (proto as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      const sql = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "");
      // The wake-up listener's own connection is not a call's work.
      if (!/^\s*(LISTEN|UNLISTEN)/i.test(sql)) mark(`sql ${sql.replace(/\s+/g, " ").trim().slice(0, 70)}`);
      return original.apply(this, args);
    };
  }

const { SYSTEM } = await import("@/server/actor");
const { getDb } = await import("@/server/db");
const { runCatalogCheck } = await import("@/server/domain/catalog/check");
const { closeAllSourceSessions } = await import("@/server/domain/catalog/source-sessions");
const { assignSource, createIdentity } = await import("@/server/domain/identities/identities");
const { createToken } = await import("@/server/domain/identities/tokens");
const { createMcpConnection, createToolHost } = await import("@/server/domain/sources/sources");
const { startProduct } = await import("../tests/helpers/product-server");
const sdk = await import("@quartermaster/tool-host");
const { z } = await import("zod");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function agentFor(sourceId: string, label: string) {
  const identity = await createIdentity(SYSTEM, { name: `stages-${label}-${Date.now()}` });
  await assignSource(SYSTEM, { identityId: identity.id, sourceId });
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "stages" });
  const tool = await (await getDb()).tool.findFirstOrThrow({
    where: { sourceId, nativeName: "bench_echo" },
    select: { modelFacingName: true },
  });
  return { token, tool: tool.modelFacingName ?? "" };
}

async function suite() {
  const product = await startProduct();
  const echo = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "echo-source.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const { source: hostSource, hostToken } = await createToolHost(SYSTEM, { name: `stages-host-${Date.now()}` });
  // The host's requests, marked as they leave and as their answers arrive.
  const tracedFetch: typeof fetch = async (input, init) => {
    const what = new URL(String(input)).pathname.replace("/api/v1/tool-hosts", "host");
    mark(`${what} sent`);
    const res = await fetch(input, init);
    const text = await res.text();
    mark(`${what} answered${text.includes('"calls":[{') ? " with a call" : ""}`);
    return new Response(text, { status: res.status, headers: res.headers });
  };
  const host = sdk.createToolHost({ url: product.url, token: hostToken, logger: false, fetch: tracedFetch });
  host.tool({
    name: "bench_echo",
    description: "Echo the text back.",
    input: z.object({ text: z.string() }),
    handler: ({ text }) => {
      mark("handler ran");
      return `echo: ${text}`;
    },
  });
  try {
    await host.serve();
    const echoUrl = await new Promise<string>((resolve) =>
      echo.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().split(" ")[0] ?? "")),
    );
    const connection = await createMcpConnection(SYSTEM, { name: `stages-mcp-${Date.now()}`, url: echoUrl });
    if ((await runCatalogCheck(connection.id, "manual")).status !== "succeeded")
      throw new Error("the MCP Connection failed its check");
    const routes = { sdk: await agentFor(hostSource.id, "sdk"), mcp: await agentFor(connection.id, "mcp") };
    const call = async (route: { token: string; tool: string }, n: number) => {
      const res = await fetch(`${product.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${route.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: n,
          method: "tools/call",
          params: { name: route.tool, arguments: { text: `call ${n}` } },
        }),
      });
      const text = await res.text();
      if (!text.includes(`echo: call ${n}`)) throw new Error(`unexpected answer ${text.slice(0, 300)}`);
    };
    type Window = { start: number; end: number; marks: Mark[] };
    const windows: Record<"sdk" | "mcp", Window[]> = { sdk: [], mcp: [] };
    for (let i = -20; i < CALLS; i++)
      for (const kind of ["sdk", "mcp"] as const) {
        // A pause between calls, so the host's requests of one call end before the next begins.
        await new Promise((r) => setTimeout(r, 30));
        marks.length = 0;
        const start = performance.now();
        await call(routes[kind], i);
        const end = performance.now();
        await new Promise((r) => setTimeout(r, 30)); // what the host still sends after the answer counts too
        if (i >= 0) windows[kind].push({ start, end, marks: [...marks] });
      }

    const rows: { name: string; value: string; goal: string; verdict: string }[] = [];
    const add = (name: string, value: string) => rows.push({ name, value, goal: "", verdict: "" });
    for (const kind of ["mcp", "sdk"] as const) {
      const ws = windows[kind];
      add(`${kind}: agent's call, sent to answered (median)`, ms(median(ws.map((w) => w.end - w.start))));
      const statements = ws.map((w) => w.marks.filter((m) => m.what.startsWith("sql")).length);
      const hostRequests = ws.map((w) => w.marks.filter((m) => m.what.endsWith(" sent")).length);
      add(
        `${kind}: database statements per call (median; min–max)`,
        `${median(statements)} (${Math.min(...statements)}–${Math.max(...statements)})`,
      );
      if (kind === "sdk") {
        add("sdk: host's requests into the product per call (median)", `${median(hostRequests)}`);
        // Stages, each from the previous one's end.
        const at = (w: Window, test: (m: Mark) => boolean, from = w.start) =>
          w.marks.find((m) => m.t >= from && test(m))?.t ?? Number.NaN;
        const stage: Record<string, number[]> = {};
        const push = (name: string, v: number) => {
          if (!Number.isFinite(v)) return;
          stage[name] = [...(stage[name] ?? []), v];
        };
        for (const w of ws) {
          const queued = at(w, (m) => /INSERT INTO tool_call/.test(m.what));
          const claimed = at(w, (m) => /UPDATE tool_call SET status = 'delivered'/.test(m.what), queued);
          const got = at(w, (m) => m.what.endsWith("answered with a call"), claimed);
          const ran = at(w, (m) => m.what === "handler ran", got);
          const posted = at(w, (m) => m.what.startsWith("host/calls/results") && m.what.endsWith(" sent"), ran);
          // The result is stored (UPDATE), or handed to the caller waiting here (its row removed: DELETE).
          const written = at(
            w,
            (m) => /UPDATE tool_call SET status = \$|DELETE FROM tool_call WHERE id = \$1 AND "sourceId"/.test(m.what),
            posted,
          );
          push("1 agent's request in → call queued (auth, lookups, checks, INSERT)", queued - w.start);
          push("2 queued → host's waiting collection claims it (wake, UPDATE)", claimed - queued);
          push("3 claimed → host holds the call (HTTP answer)", got - claimed);
          push("4 host holds it → handler ran", ran - got);
          push("5 handler ran → result POST sent (SDK)", posted - ran);
          push("6 result POST sent → result stored or handed over (HTTP, auth, one statement)", written - posted);
          push("7 stored → agent holds the answer (wake, [DELETE], call log, HTTP answer)", w.end - written);
        }
        for (const [name, values] of Object.entries(stage)) add(`  ${name}`, ms(median(values)));
      }
      // The statements and host requests of a call with the median count, in order.
      if (process.env.BENCH_SDK_STAGES_VERBOSE) {
        const typical = ws.find((w) => w.marks.filter((m) => m.what.startsWith("sql")).length === median(statements));
        for (const m of typical?.marks ?? [])
          add(`    ${kind} ${(m.t - (typical?.start ?? 0)).toFixed(1)} ms: ${m.what}`, "");
      }
    }
    return rows;
  } finally {
    await host.close({ graceMs: 0 });
    closeAllSourceSessions();
    echo.kill("SIGTERM");
    await product.close();
  }
}

await runOnDatabases({ dataDir, label: "stages", suite, widths: [80, 24] });
