/**
 * The benchmark's agents, in a process of their own so the product's process only serves:
 * AGENTS loops, each calling bench_echo through /mcp one call after another for
 * DURATION_MS (TOOL_NAME: another Tool of the same shape). Prints one JSON line: calls,
 * errors, wall time and every call's latency.
 * QM_URL may list several instances (comma-separated): agent i calls the (i mod n)th, as
 * a round-robin balancer would spread them, without a balancer process in the way.
 * HOP_URL instead: the agents call that MCP endpoint as it is (the bare pass-through hop to
 * the benchmark's Source), each in a session of its own, as that 2025-era server requires.
 */
const urls = process.env.HOP_URL
  ? [process.env.HOP_URL]
  : (process.env.QM_URL ?? "").split(",").map((u) => `${u.trim()}/mcp`);
const token = process.env.QM_AGENT_TOKEN ?? "";
const toolName = process.env.TOOL_NAME ?? "bench_echo";
const sessions: (string | undefined)[] = [];

async function openSession(agent: number): Promise<void> {
  const res = await fetch(urls[0] ?? "", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-agent", version: "1" } },
    }),
  });
  await res.text();
  sessions[agent] = res.headers.get("mcp-session-id") ?? undefined;
}
const agents = Number(process.env.AGENTS ?? 50);
const durationMs = Number(process.env.DURATION_MS ?? 10_000);

async function callOnce(agent: number, n: number): Promise<boolean> {
  const res = await fetch(urls[agent % urls.length] ?? "", {
    method: "POST",
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(sessions[agent] ? { "mcp-session-id": sessions[agent], "mcp-protocol-version": "2025-06-18" } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: toolName, arguments: { text: `agent ${agent} call ${n}` } },
    }),
  });
  const body = (await res.json()) as { result?: { content?: { text?: string }[]; isError?: boolean } };
  return res.ok && !body.result?.isError && body.result?.content?.[0]?.text === `echo: agent ${agent} call ${n}`;
}

if (process.env.HOP_URL) await Promise.all(Array.from({ length: agents }, (_, a) => openSession(a)));
// Warm up: the first calls pay for connections and compilation, on both sides.
await Promise.all(Array.from({ length: agents }, (_, a) => callOnce(a, -1)));

const latencies: number[] = [];
let errors = 0;
const started = performance.now();
const until = started + durationMs;
await Promise.all(
  Array.from({ length: agents }, async (_, agent) => {
    for (let n = 0; performance.now() < until; n++) {
      const t0 = performance.now();
      const ok = await callOnce(agent, n).catch(() => false);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  }),
);
const wallMs = performance.now() - started;
console.log(JSON.stringify({ calls: latencies.length, errors, wallMs, latencies }));

// A module, for top-level await.
export {};
