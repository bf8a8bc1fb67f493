/**
 * docs/deploy.md followed as written: two real instances (`scripts/start.ts`, production
 * build) on one PostgreSQL database behind Debian's nginx with the documented config
 * (tests/helpers/nginx.ts). A browser signs in and writes through it; 200 agent calls
 * split across both instances; an instance drained with SIGTERM under load loses no
 * request; a rolling upgrade to a version with one more (additive) migration — add the new
 * instances, reload, drain the old, remove them, reload — loses no call.
 *
 * PostgreSQL only (`npm run test:postgres`); CI installs nginx (.ci/run), elsewhere the
 * file is skipped without it.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetAuth } from "@/server/auth";
import { closeDatabase, getDb, installDatabase } from "@/server/db";
import { committedMigrationNames, MIGRATIONS_DIR } from "@/server/db/migrations-dir";
import { openDatabase } from "@/server/db/open";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo, operator } from "../helpers/catalog";
import { ensureBuilt, freePort, type Instance, startInstance } from "../helpers/instances";
import { type RunningServer, simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { type Nginx, nginxAvailable, startNginx } from "../helpers/nginx";
import { adminQuery, databaseUrl, randomName, usePostgres } from "../helpers/template";

const required = process.env.CI === "1" || process.env.CI === "true";
if (required && usePostgres && !nginxAvailable())
  throw new Error("CI needs Debian's nginx: apt-get install -y nginx (.ci/run does)");

const AGENTS = 4;
const hostOf = (i: Instance) => new URL(i.url).host;

describe.runIf(usePostgres && nginxAvailable())("two instances behind nginx with the documented config", () => {
  const name = randomName("qm_nginx");
  const url = databaseUrl(name);
  const instances: Instance[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let nginx: Nginx;
  let token = "";
  let scrapeKey = "";
  /** How often the Source ran each call (by its query): a retried call must not run twice. */
  const ran = new Map<string, number>();
  let loads = 0;

  beforeAll(async () => {
    ensureBuilt(); // CI has built for the browser tests; a developer's first run builds here
    await adminQuery(`CREATE DATABASE ${name}`);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    for (const n of ["a", "b"]) instances.push(await startInstance({ name: n, databaseUrl: url, baseUrl }));
    await Promise.all(instances.map((i) => i.waitReady(150_000)));
    nginx = await startNginx(port, instances.map(hostOf));

    // The test's own domain calls (users, a Source, an agent) go to the same database.
    installDatabase(await openDatabase({ url }));
    resetAuth();
    const source: RunningServer = await startSdkServer({
      catalog: () => [simpleTool("lookup")],
      onCall: async (_name, args) => {
        const query = String((args as { query?: unknown }).query);
        ran.set(query, (ran.get(query) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 20)); // some calls are always in flight
        return { content: [{ type: "text", text: `ok ${JSON.stringify(args)}` }] };
      },
    });
    closers.push(source.close);
    const { api, source: created } = await connectionTo(source.url, { name: "behind-nginx" });
    expect((await api.sources.checkNow({ id: created.id })).status).toBe("succeeded");
    const ops = await operator();
    const identity = await ops.identities.create({ name: "nginx-agent" });
    await ops.identities.assignSource({ identityId: identity.id, sourceId: created.id });
    token = (await ops.identities.createToken({ identityId: identity.id, name: "load" })).value;
    const admin = callerFor((await makeUser("admin")).actor);
    scrapeKey = (await admin.apiKeys.create({ name: "scraper", role: "viewer" })).key;
  }, 600_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await nginx?.stop();
    for (const close of closers) await close().catch(() => {});
    await closeDatabase();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }, 120_000);

  /**
   * Agents calling through nginx in a loop until `stop()`; every failure is kept, with its
   * cause. `ok` holds the queries of the calls that succeeded.
   */
  function agentsCalling() {
    const prefix = `load${++loads}`;
    let running = true;
    const seen = { calls: 0, retried: 0, errors: [] as string[], ok: [] as string[] };
    const loops = Array.from({ length: AGENTS }, async (_, n) => {
      const client = new Client({ name: `agent-${n}`, version: "1" });
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${nginx.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
            fetch: retryingClosedKeptConnection(seen),
          }),
        );
        let k = 0;
        while (running) {
          const query = `${prefix}-${n}-${k++}`;
          try {
            const result = await client.callTool({ name: "lookup", arguments: { query } });
            if (result.isError) seen.errors.push(JSON.stringify(result.content));
            else seen.ok.push(query);
          } catch (error) {
            const cause = (error as { cause?: { code?: string; message?: string } }).cause;
            seen.errors.push(`${(error as Error).message}${cause ? `: ${cause.code} ${cause.message}` : ""}`);
          }
          seen.calls++;
        }
      } catch (error) {
        seen.errors.push(`connect: ${(error as Error).message}`);
      } finally {
        await client.close().catch(() => {});
      }
    });
    return {
      seen,
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  /**
   * What an HTTP client does for a request on a kept-alive connection that the server closed
   * before answering ("other side closed"): send it once more on a new connection. nginx's
   * reload closes the client connections its old worker held idle, and one a client wrote
   * to at that instant fails so — nginx never read the request, nothing reached an instance.
   * `ran` proves it: a retried call that had run would run twice.
   */
  function retryingClosedKeptConnection(seen: { retried: number }): typeof fetch {
    return async (input, init) => {
      try {
        return await fetch(input, init);
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code !== "UND_ERR_SOCKET") throw error;
        seen.retried++;
        return await fetch(input, init);
      }
    };
  }

  /** Every call that succeeded ran exactly once at the Source, and no other call ran twice. */
  function expectEachRanOnce(ok: string[]) {
    for (const query of ok) expect(ran.get(query), query).toBe(1);
    expect([...ran].filter(([, times]) => times > 1)).toEqual([]);
  }

  /** Successful catalog Tool Calls an instance has counted (its own /api/metrics). */
  async function callsServedBy(instance: Instance): Promise<number> {
    const text = await (
      await fetch(`${instance.url}/api/metrics`, { headers: { authorization: `Bearer ${scrapeKey}` } })
    ).text();
    const line = text
      .split("\n")
      .find((l) => l.startsWith('qm_tool_calls_total{code="",kind="catalog",outcome="ok"} '));
    return line ? Number(line.split(" ")[1]) : 0;
  }

  it("a browser signs in and creates an API key through nginx", async () => {
    const { email, password } = await makeUser("admin");
    const browser = await chromium.launch({ executablePath: process.env.QM_CHROMIUM ?? "/usr/bin/chromium" });
    closers.push(() => browser.close());
    const page = await browser.newPage({ baseURL: nginx.url });
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/tools\/catalog/);
    await page.goto("/settings/api-keys");
    await page.getByRole("button", { name: "Create API key" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("through nginx");
    await dialog.getByLabel("Role").selectOption("viewer");
    await dialog.getByRole("button", { name: "Create key" }).click();
    expect((await dialog.getByTestId("secret-value").textContent())?.trim()).toMatch(/^qm_key_/);
    const db = await getDb();
    expect(await db.apiKey.count({ where: { name: "through nginx" } })).toBe(1);
  }, 120_000);

  it("200 agent calls through nginx all succeed, split across both instances", async () => {
    const before = await Promise.all(instances.map(callsServedBy));
    const client = new Client({ name: "counted-agent", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${nginx.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const failures: string[] = [];
    for (let round = 0; round < 50; round++)
      await Promise.all(
        Array.from({ length: 4 }, async (_, n) => {
          const result = await client.callTool({ name: "lookup", arguments: { query: `${round}-${n}` } });
          if (result.isError) failures.push(JSON.stringify(result.content));
        }),
      );
    await client.close();
    expect(failures).toEqual([]);
    const served = (await Promise.all(instances.map(callsServedBy))).map((n, i) => n - (before[i] ?? 0));
    console.info(`nginx: 200 calls served as ${served.join(" + ")}`);
    expect(served.reduce((a, b) => a + b, 0)).toBe(200);
    for (const n of served) expect(n).toBeGreaterThan(0);
  }, 120_000);

  it("an instance drained with SIGTERM under load loses no request, and logs no error", async () => {
    const [drained] = instances as [Instance, Instance];
    const load = agentsCalling();
    await expect.poll(() => load.seen.calls, { timeout: 30_000 }).toBeGreaterThan(40);
    drained.child.kill("SIGTERM");
    expect(await drained.exited).toBe(0);
    const atExit = load.seen.calls;
    await expect.poll(() => load.seen.calls, { timeout: 30_000 }).toBeGreaterThan(atExit + 40);
    await load.stop();
    expect(load.seen.errors).toEqual([]);
    expectEachRanOnce(load.seen.ok);
    expect(drained.output()).toContain('"msg":"stopped"');
    // The readiness 503 of a drain is no error (level 50): a deploy pages nobody.
    expect(
      drained
        .output()
        .split("\n")
        .filter((l) => l.includes('"level":50')),
    ).toEqual([]);
    expect(nginx.output()).not.toMatch(/reset by peer|prematurely closed/);
    console.info(`nginx: ${load.seen.calls} calls while one instance was drained (${load.seen.retried} resent)`);
  }, 120_000);

  it("a rolling upgrade with one more additive migration (add, reload, drain, remove, reload) loses no call", async () => {
    const old = instances.filter((i) => i.child.exitCode === null);
    // The new version: this code with one more migration, additive as migrations must be.
    const newer = await mkdtemp(path.join(os.tmpdir(), "qm-newer-"));
    closers.push(() => rm(newer, { recursive: true, force: true }));
    for (const m of await committedMigrationNames())
      await cp(path.join(MIGRATIONS_DIR, m), path.join(newer, m), { recursive: true });
    const added = "29991231000000_rolling_upgrade_column";
    await mkdir(path.join(newer, added));
    await writeFile(path.join(newer, added, "migration.sql"), 'ALTER TABLE "source" ADD COLUMN "upgradeNote" TEXT;\n');

    const load = agentsCalling();
    await expect.poll(() => load.seen.calls, { timeout: 30_000 }).toBeGreaterThan(20);
    const baseUrl = nginx.url;
    const fresh: Instance[] = [];
    for (const n of ["c", "d"])
      fresh.push(await startInstance({ name: n, databaseUrl: url, baseUrl, env: { QM_MIGRATIONS_DIR: newer } }));
    instances.push(...fresh);
    await Promise.all(fresh.map((i) => i.waitReady(150_000)));
    // The old instance kept serving while the new ones migrated.
    for (const i of old) expect(await i.ready()).toBe(true);
    await nginx.setUpstreams([...old, ...fresh].map(hostOf)); // add, reload
    const afterAdd = load.seen.calls;
    await expect.poll(() => load.seen.calls, { timeout: 30_000 }).toBeGreaterThan(afterAdd + 20);
    for (const i of old) i.child.kill("SIGTERM"); // drain
    for (const i of old) expect(await i.exited).toBe(0);
    await nginx.setUpstreams(fresh.map(hostOf)); // remove, reload
    const afterRemove = load.seen.calls;
    await expect.poll(() => load.seen.calls, { timeout: 30_000 }).toBeGreaterThan(afterRemove + 20);
    await load.stop();

    expect(load.seen.errors).toEqual([]);
    expectEachRanOnce(load.seen.ok);
    const db = await getDb();
    const applied = await db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name = '${added}' AND finished_at IS NOT NULL`,
    );
    expect(applied[0]?.n).toBe(1);
    for (const i of fresh) expect(await callsServedBy(i)).toBeGreaterThan(0);
    console.info(`nginx: ${load.seen.calls} calls through a rolling upgrade (${load.seen.retried} resent)`);
  }, 400_000);
});
