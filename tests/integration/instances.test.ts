/**
 * Several instances on one PostgreSQL database, as an operator scales out: real
 * `scripts/start.ts` processes (production build) behind a load balancer that routes by
 * /api/ready. PostgreSQL only (`npm run test:postgres`); an embedded database is one process.
 *
 * Three start at once on an empty database and all become ready (one migrates, the others
 * wait); a fourth whose code lacks the newest migration is refused. Then, while agents call
 * /mcp through the balancer in a loop, the instance running a catalog check is killed with
 * SIGKILL and another is drained with SIGTERM: only the killed one's requests in flight
 * fail, the drained one loses none, and the check is taken over by the last instance once
 * its lease lapses.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetAuth } from "@/server/auth";
import { closeDatabase, getDb, installDatabase } from "@/server/db";
import { committedMigrationNames, MIGRATIONS_DIR } from "@/server/db/migrations-dir";
import { openDatabase } from "@/server/db/open";
import { INTERRUPTED, LEASE_MS } from "@/server/domain/catalog/lease";
import { INSTANCE_LIMITS } from "@/server/limits";
import { type Balancer, startBalancer } from "../helpers/balancer";
import { connectionTo, operator } from "../helpers/catalog";
import { ensureBuilt, type Instance, startInstance } from "../helpers/instances";
import { type RunningServer, simpleTool, startRawServer, startSdkServer } from "../helpers/mcp-servers";
import { adminQuery, databaseUrl, randomName, usePostgres } from "../helpers/template";

const AGENTS = 6;

describe.runIf(usePostgres)("several instances on one PostgreSQL database", () => {
  const name = randomName("qm_instances");
  const url = databaseUrl(name);
  let balancer: Balancer;
  const instances: Instance[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    ensureBuilt(); // CI has built for the browser tests; a developer's first run builds here
    await adminQuery(`CREATE DATABASE ${name}`);
    balancer = await startBalancer();
  }, 900_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    for (const close of closers) await close().catch(() => {});
    await balancer?.close();
    await closeDatabase();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }, 120_000);

  it("three start at once on an empty database and all become ready; one of an older schema is refused", async () => {
    // Each is told to create the same bootstrap admin and API key, as a scale-out's
    // instances share one configuration: one creates them, the others find them.
    const bootstrap = {
      QM_BOOTSTRAP_ADMIN_EMAIL: "scale-out-admin@example.com",
      QM_BOOTSTRAP_ADMIN_PASSWORD: "scale-out-password-1",
      QM_BOOTSTRAP_API_KEY: "qm_scale_out_bootstrap_key_0123456789abcdef",
    };
    for (const n of ["a", "b", "c"])
      instances.push(await startInstance({ name: n, databaseUrl: url, baseUrl: balancer.url, env: bootstrap }));
    await Promise.all(instances.map((i) => i.waitReady(150_000)));
    const migrated = instances.filter((i) => i.output().includes('"msg":"migrations applied"'));
    expect(migrated.map((i) => i.name)).toHaveLength(1);
    const created = instances.filter((i) => /"created":true,"msg":"bootstrap admin ready"/.test(i.output()));
    expect(created).toHaveLength(1);
    for (const i of instances) expect(i.output()).toContain('"msg":"bootstrap API key ready"');
    balancer.setUpstreams(instances.map((i) => i.url));

    // A fourth whose code is older: its migrations folder lacks the newest migration.
    const names = await committedMigrationNames();
    const older = await mkdtemp(path.join(os.tmpdir(), "qm-older-"));
    closers.push(() => rm(older, { recursive: true, force: true }));
    for (const m of names.slice(0, -1))
      await cp(path.join(MIGRATIONS_DIR, m), path.join(older, m), { recursive: true });
    const fourth = await startInstance({ name: "d", databaseUrl: url, env: { QM_MIGRATIONS_DIR: older } });
    expect(await fourth.exited).toBe(1);
    expect(fourth.output()).toContain("This Quartermaster is older than its database");
    expect(fourth.output()).toContain(names.at(-1));
    // The others never noticed.
    for (const i of instances) expect(await i.ready()).toBe(true);
  }, 240_000);

  it("losing one instance (SIGKILL) and draining another (SIGTERM) under load: only the killed one's requests in flight fail; its check moves on", async () => {
    expect(instances.filter((i) => i.child.exitCode === null)).toHaveLength(3);
    const opened = await openDatabase({ url });
    installDatabase(opened);
    resetAuth();
    const db = await getDb();

    // A Source the agents call, checked once so its Tool is published.
    const fast: RunningServer = await startSdkServer({
      catalog: () => [simpleTool("lookup")],
      onCall: async (_name, args) => {
        await new Promise((r) => setTimeout(r, 40)); // a call takes a moment: some are in flight at any time
        return { content: [{ type: "text", text: `ok ${JSON.stringify(args)}` }] };
      },
    });
    closers.push(fast.close);
    const { api, source } = await connectionTo(fast.url, { name: "agents-call-this" });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const ops = await operator();
    const identity = await ops.identities.create({ name: "load-agent" });
    await ops.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const { value: token } = await ops.identities.createToken({ identityId: identity.id, name: "load" });

    await expect.poll(() => balancer.inRotation().length, { timeout: 10_000 }).toBe(3);
    let running = true;
    const seen = { calls: 0, errors: [] as string[] };
    const agents = Array.from({ length: AGENTS }, async (_, n) => {
      const client = new Client({ name: `agent-${n}`, version: "1" });
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
      } catch (error) {
        seen.errors.push(`connect: ${(error as Error).message}`);
        return;
      }
      while (running) {
        try {
          const result = await client.callTool({
            name: "lookup",
            arguments: { query: `agent ${n}, call ${seen.calls}` },
          });
          if (result.isError) seen.errors.push(JSON.stringify(result.content));
        } catch (error) {
          seen.errors.push((error as Error).message);
        }
        seen.calls++;
      }
      await client.close();
    });
    await expect.poll(() => seen.calls, { timeout: 20_000 }).toBeGreaterThan(30);
    expect(seen.errors).toEqual([]);

    // A Source whose first listing stalls: whichever instance's scheduler claims it is busy with it.
    const slow = await startRawServer(({ page }) =>
      slow.requests.filter((r) => r.rpcMethod === "tools/list").length === 1 && page === 1
        ? { hang: true }
        : { result: { tools: [simpleTool("slow_lookup")] } },
    );
    closers.push(slow.close);
    const { source: stalled } = await connectionTo(slow.url, { name: "stalls-once" });
    await expect
      .poll(() => slow.requests.filter((r) => r.rpcMethod === "tools/list").length, { timeout: 20_000 })
      .toBe(1);
    const owner = (await db.source.findUniqueOrThrow({ where: { id: stalled.id } })).leaseOwner ?? "";
    console.info(`instances: ${seen.calls} calls before the kill; the stalled check is on ${owner}`);
    const victim = instances.find((i) => owner.split(":")[1] === String(i.pid));
    if (!victim) throw new Error(`the stalled check's lease is held by ${owner}, not one of the instances`);
    const [drained, survivor] = instances.filter((i) => i !== victim) as [Instance, Instance];

    const killedAt = Date.now();
    victim.child.kill("SIGKILL");
    await victim.exited;
    // Until the kernel has torn the process down its listening socket still completes
    // connections: a request sent before then was in flight when the instance died.
    const goneAt = Date.now();
    drained.child.kill("SIGTERM");
    expect(await drained.exited).toBe(0);
    expect(drained.output()).toContain('"msg":"stopped"');
    const callsAfterDrain = seen.calls;

    // The check the killed instance was running completes on the survivor once its lease lapses.
    await expect
      .poll(
        () =>
          db.catalogCheck.findFirst({
            where: { sourceId: stalled.id, status: "succeeded", finishedAt: { gt: new Date(killedAt) } },
          }),
        { timeout: LEASE_MS + INSTANCE_LIMITS.SCHEDULER_ROUND_MS.value + 20_000, interval: 500 },
      )
      .toBeTruthy();
    const tookOver = Date.now() - killedAt;
    const interrupted = await db.catalogCheck.findFirst({ where: { sourceId: stalled.id, status: "failed" } });
    expect(interrupted?.failureMessage).toBe(INTERRUPTED);
    await expect.poll(() => seen.calls, { timeout: 10_000 }).toBeGreaterThan(callsAfterDrain + 20);
    running = false;
    await Promise.all(agents);

    // What the balancer saw: failures only on the killed instance, only requests sent before the kill.
    const failed = balancer.passed.filter((p) => p.status === null || p.status >= 500);
    for (const f of failed) {
      expect(f.upstream).toBe(victim.url);
      expect(f.startedAt).toBeLessThanOrEqual(goneAt);
    }
    expect(failed.length).toBeLessThanOrEqual(AGENTS);
    expect(seen.errors.length).toBe(failed.length);
    const byDrained = balancer.passed.filter((p) => p.upstream === drained.url);
    expect(byDrained.length).toBeGreaterThan(0);
    // (200 for calls; 202 and 405 are the SDK client's notification and its probe for a GET stream.)
    expect(byDrained.filter((p) => p.status === null || p.status >= 500)).toEqual([]);
    expect(balancer.passed.some((p) => p.upstream === survivor.url && p.startedAt > killedAt)).toBe(true);
    console.info(
      `instances: ${seen.calls} calls, ${failed.length} lost with the killed instance, check taken over in ${tookOver} ms (lease ${LEASE_MS} ms)`,
    );
  }, 180_000);
});
