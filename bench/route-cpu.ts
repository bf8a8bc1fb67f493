/**
 * The product's CPU per /mcp request, in one process with no HTTP in front (the handler the
 * front server calls), so a loaded machine moves it less than wall-clock figures: tools/call
 * of an MCP Connection's Tool (the echo Source in its own process, with sealed auth
 * headers), tools/list of a 500-Tool page, and initialize (or server/discover). Each phase
 * also writes a CPU profile to /tmp/route-cpu-<phase>.cpuprofile (bench/profile-top.ts reads it).
 *
 *   node --import tsx bench/route-cpu.ts            2025-06-18 requests, embedded database
 *   MODERN=1 node --import tsx bench/route-cpu.ts   2026-07-28 requests
 *   PGURL=postgres://… node --import tsx bench/route-cpu.ts   on that (empty, migrated here) database
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { benchEnvironment } from "./on-databases";

const dataDir = benchEnvironment("adhoc");
const { installDatabase } = await import("@/server/db");
const { openDatabase } = await import("@/server/db/open");
const { applyMigrations } = await import("@/server/db/schema-engine");
const { SYSTEM } = await import("@/server/actor");
const { runCatalogCheck } = await import("@/server/domain/catalog/check");
const { assignSource, createIdentity, updateIdentity } = await import("@/server/domain/identities/identities");
const { createToken } = await import("@/server/domain/identities/tokens");
const { createMcpConnection } = await import("@/server/domain/sources/sources");
const { handleMcpPostRead } = await import("@/server/mcp/handler");
const opened = await openDatabase(process.env.PGURL ? { url: process.env.PGURL } : { dataDir });
await applyMigrations(opened.adapterFactory);
installDatabase(opened);
const echo = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "echo-source.ts")], {
  stdio: ["ignore", "pipe", "inherit"],
});
const line: string = await new Promise((r) => echo.stdout.once("data", (c) => r(c.toString().split("\n")[0])));
const [sourceUrl, , listerUrl] = line.split(" ");
async function agent(url: string, all: boolean) {
  const source = await createMcpConnection(SYSTEM, {
    name: `s-${Math.random()}`,
    url,
    headers: { "x-api-key": "secret-value" },
  } as never);
  await runCatalogCheck(source.id, "manual");
  const identity = await createIdentity(SYSTEM, { name: `a-${Math.random()}` });
  if (all) await updateIdentity(SYSTEM, { id: identity.id, exposure: "all" });
  await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
  return (await createToken(SYSTEM, { identityId: identity.id, name: "t" })).value;
}
const callToken = await agent(sourceUrl as string, false);
const listToken = await agent(listerUrl as string, true);
const modern = process.env.MODERN === "1";
function req(token: string, method: string, params: object) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: modern
      ? {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" },
          },
        }
      : params,
  };
  const headers = new Headers({
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": modern ? "2026-07-28" : "2025-06-18",
    ...(modern ? { "mcp-method": method } : {}),
    // 2026-07-28 carries a call's Tool name in a header too, and refuses a request without it.
    ...(modern && "name" in params ? { "mcp-name": String((params as { name: unknown }).name) } : {}),
  });
  return [new Request("http://localhost/mcp", { method: "POST", headers }), Buffer.from(JSON.stringify(body))] as const;
}
async function phase(name: string, n: number, make: () => readonly [Request, Buffer]) {
  for (let i = 0; i < 30; i++) {
    const [r, b] = make();
    await (await handleMcpPostRead(r, b)).text();
  }
  const s = new Session();
  s.connect();
  await s.post("Profiler.enable");
  await s.post("Profiler.start");
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const [r, b] = make();
    const res = await handleMcpPostRead(r, b);
    const t = await res.text();
    if (i === 0 && (!res.ok || (JSON.parse(t) as { error?: unknown }).error))
      throw new Error(`${name}: ${t.slice(0, 300)}`);
  }
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const { profile } = await s.post("Profiler.stop");
  s.disconnect();
  writeFileSync(`/tmp/route-cpu-${name}.cpuprofile`, JSON.stringify(profile));
  console.log(
    `${name}: ${((c.user + c.system) / 1000 / n).toFixed(2)} ms CPU/req, ${(wall / n).toFixed(2)} ms wall/req`,
  );
}
const N = Number(process.env.N ?? 500);
await phase("call", N, () => req(callToken, "tools/call", { name: "bench_echo", arguments: { text: "hi" } }));
await phase("list", Math.ceil(N / 10), () => req(listToken, "tools/list", {}));
await phase("init", N, () =>
  req(
    listToken,
    modern ? "server/discover" : "initialize",
    modern ? {} : { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  ),
);
echo.kill();
process.exit(0);
