/**
 * A real instance (`scripts/start.ts`, production build, embedded database) stopped with
 * SIGTERM while its trace collector is broken and a Check now is running, as an operator's
 * deploy meets it: only Quartermaster's own spans reach the collector (none of Next.js's, no
 * query string); a collector that refuses batches is logged and counted; one that hangs
 * costs the stop at most TRACING_STOP_MS, after the leases are released and the database
 * closed, and the exit is 0 with no unhandledRejection; the readiness 503s a balancer's
 * probe gets during the drain are logged at debug, not as errors (issue 33, items 4 to 7).
 * Skipped on the PostgreSQL run: once is enough.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/open";
import { INSTANCE_LIMITS } from "@/server/limits";
import { ensureBuilt } from "../helpers/instances";
import { listenOnLoopback } from "../helpers/loopback";
import { startOtlpReceiver } from "../helpers/otlp-receiver";
import { type SpawnedServer, spawnServer } from "../helpers/spawn-server";
import { usePostgres } from "../helpers/template";

const GRACE_SECONDS = 8;
const PROMTOOL = "/usr/bin/promtool"; // Debian's prometheus (.ci/run installs it)
const KEY = `qm_key_${"shutdown".repeat(5)}`;

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A tRPC procedure over HTTP with the bootstrap API key (docs/api.md). */
async function trpc(base: string, procedure: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${base}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ json: input }),
  });
  const body = (await response.json()) as { result?: { data: { json: unknown } } };
  if (!response.ok || !body.result) throw new Error(`${procedure}: ${response.status} ${JSON.stringify(body)}`);
  return body.result.data.json;
}

const logLines = (server: SpawnedServer) =>
  server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; time: string; msg: string; path?: string; status?: number });

describe.skipIf(usePostgres)("an instance stopped while its trace collector is down", () => {
  it("logs and counts refused batches; a hanging collector delays the stop by at most TRACING_STOP_MS, after the leases are released; the drain's readiness 503s are no errors", async () => {
    ensureBuilt();
    const collector = await startOtlpReceiver("refuse");
    closers.push(collector.close);
    // A Source whose server takes every request and never answers: its check is in flight at SIGTERM.
    const held: http.ServerResponse[] = [];
    const silent = await listenOnLoopback((req, res) => {
      req.resume();
      held.push(res);
    });
    closers.push(silent.close);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-shutdown-"));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));

    const server = await spawnServer({
      name: "shutdown",
      env: {
        QM_BUILD: "0",
        QM_DATA_DIR: dataDir,
        QM_BOOTSTRAP_API_KEY: KEY,
        QM_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        LOG_LEVEL: "debug",
      },
    });
    closers.push(server.stop);
    await server.waitReady(120_000);
    const scrape = async () =>
      (await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();

    // A fresh instance's first scrape: every counter already has its series (at 0), and the
    // Sources-by-state gauge is there, so rate() and absent() alerts see them from the start.
    const first = await scrape();
    const counters = [...first.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1] as string);
    expect(counters).toEqual(expect.arrayContaining(["qm_tool_calls_total", "qm_trace_exports_total"]));
    for (const name of counters)
      expect(
        first.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `)).length,
        name,
      ).toBeGreaterThan(0);
    expect(first).toContain('qm_tool_calls_total{code="",kind="catalog",outcome="ok"} 0');
    expect(first).toMatch(/^qm_sources\{kind="mcp_connection",state="failing"\} 0$/m);
    expect(first).toMatch(/^qm_build_info\{/m);
    if (existsSync(PROMTOOL)) {
      const lint = spawnSync(PROMTOOL, ["check", "metrics"], { input: first, encoding: "utf8" });
      expect(`${lint.stdout}${lint.stderr}`.trim()).toBe("");
    }
    const mcp = () =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });

    // Next.js renders a page and serves a tRPC query carrying its input in the URL: none of
    // its spans reaches the collector, only Quartermaster's own (an /mcp request's).
    const input = encodeURIComponent(JSON.stringify({ json: { query: "secret-memory-search" } }));
    expect((await fetch(`${server.url}/sign-in`)).status).toBe(200);
    const listed = await fetch(`${server.url}/api/trpc/users.list?input=${input}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(listed.status).toBe(200);
    expect((await mcp()).status).toBe(401); // an mcp.request span all the same
    // Refused batches: a warning says so, and the counter counts them.
    await expect
      .poll(() => server.output().includes("the trace collector did not take a batch of spans"), { timeout: 20_000 })
      .toBe(true);
    await expect
      .poll(() => collector.batches.map((b) => b.body).join("\n"), { timeout: 20_000 })
      .toContain('"mcp.request"');
    await new Promise((r) => setTimeout(r, 1_500)); // a later batch would hold a framework's spans too
    const scopes = collector.spans.map((span) => span.scope);
    expect(new Set(scopes)).toEqual(new Set(["quartermaster"]));
    const sent = collector.batches.map((b) => b.body).join("\n");
    expect(sent).not.toContain("secret-memory-search");
    expect(sent).not.toContain("?input=");
    expect(sent).not.toContain("stacktrace");
    const metrics = await scrape();
    expect(Number(/^qm_trace_exports_total\{outcome="failed"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);

    // Now the collector hangs, and a Check now holds its Source's lease.
    collector.state.mode = "hang";
    const source = (await trpc(server.url, "sources.createMcpConnection", {
      name: "silent",
      url: `${silent.origin}/mcp`,
      reviewPolicy: "trust",
    })) as { id: string };
    void trpc(server.url, "sources.checkNow", { id: source.id }).catch(() => {});
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const exportsBefore = collector.state.requests;
    await mcp(); // spans for the collector that hangs
    await expect.poll(() => collector.state.requests, { timeout: 10_000 }).toBeGreaterThan(exportsBefore);

    const signalled = Date.now();
    server.child.kill("SIGTERM");
    // A balancer's readiness probe during the drain, until the instance stops listening.
    const probes: number[] = [];
    for (;;) {
      const status = await fetch(`${server.url}/api/ready`).then(
        (r) => r.status,
        () => null,
      );
      if (status === null) break;
      probes.push(status);
      await new Promise((r) => setTimeout(r, 200));
    }
    const code = await server.exited;
    const took = Date.now() - signalled;
    const output = server.output();

    // The whole stop fits the grace period (its watchdog exits 1 two seconds after it), and
    // the collector that hangs cost it at most 3 s, from the leases released to the exit.
    expect(code, output).toBe(0);
    expect(took).toBeLessThan(GRACE_SECONDS * 1000 + 2_000);
    expect(output).toContain("the trace collector did not take the last spans in time");
    expect(output).toContain(`"waitedMs":${INSTANCE_LIMITS.TRACING_STOP_MS.value}`);
    expect(output).not.toMatch(/unhandledRejection|ECONNREFUSED|the shutdown has not finished/);
    const lines = logLines(server);
    const at = (msg: string) => Date.parse(lines.find((l) => l.msg === msg)?.time ?? "");
    const released = at("released the leases still held");
    const stopped = at("stopped");
    expect(stopped - released).toBeGreaterThanOrEqual(INSTANCE_LIMITS.TRACING_STOP_MS.value);
    expect(stopped - released).toBeLessThanOrEqual(3_000);

    // The drain's readiness 503s: answered, logged at debug (20), never as errors.
    expect(probes).toContain(503);
    const ready503 = lines.filter((l) => l.msg === "request" && l.path === "/api/ready" && l.status === 503);
    expect(ready503.length).toBeGreaterThan(0);
    expect(ready503.map((l) => l.level)).toEqual(ready503.map(() => 20));

    // The lease went back before the tracing stop: nothing holds the Source now.
    expect(output).toMatch(/"released":[1-9]/);
    const opened = await openDatabase({ dataDir });
    try {
      const row = await opened.db.source.findUniqueOrThrow({
        where: { id: source.id },
        select: { leaseOwner: true, leaseUntil: true },
      });
      expect(row).toEqual({ leaseOwner: null, leaseUntil: null });
    } finally {
      await opened.close();
    }
  }, 240_000);
});
