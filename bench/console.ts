/**
 * npm run bench:console — how long each console page takes, warm, from navigation to its
 * content (not a skeleton): Chromium on loopback against a built, started product with the
 * demo's data. For each page: one visit to warm it (the server's compiled route, the
 * browser's cache of scripts), then BENCH_VISITS full navigations, each timed from
 * page.goto until the page's heading is visible and no loading state is left on it
 * (components/ui/states.tsx and the lists' own both say data-testid="loading-state").
 * Goal (issue 29): every page within 500 ms. "document" is the server's part: navigation to
 * the first byte of the page's HTML (the rest is scripts, hydration and the page's queries).
 * BENCH_PAGES=/tools,/agents measures only the pages under those paths.
 *
 * QM_BENCH_URL=http://127.0.0.1:PORT and QM_BENCH_ADMIN=<its data folder>/demo-admin.json
 * measure a product already running (`npm start`); without them a demo instance of this
 * checkout is started in a fresh data folder (it needs a current build: `npm run build`).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { NAV } from "@/components/layout/nav";
import { type SpawnedServer, spawnServer } from "@/tests/helpers/spawn-server";

const VISITS = Number(process.env.BENCH_VISITS ?? 5);
const GOAL_MS = 500;

async function product(): Promise<{ url: string; admin: { email: string; password: string }; server?: SpawnedServer }> {
  if (process.env.QM_BENCH_URL && process.env.QM_BENCH_ADMIN)
    return { url: process.env.QM_BENCH_URL, admin: JSON.parse(readFileSync(process.env.QM_BENCH_ADMIN, "utf8")) };
  const server = await spawnServer({ name: "bench-console", env: { QM_DEMO: "1", QM_BUILD: "0", LOG_LEVEL: "warn" } });
  await server.waitReady(300_000);
  const file = path.join(server.dataDir, "demo-admin.json");
  return { url: server.url, admin: JSON.parse(readFileSync(file, "utf8")), server };
}

async function trpc<T>(page: Page, url: string, procedure: string, input: unknown): Promise<T> {
  const res = await page.request.get(
    `${url}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
  );
  if (res.status() !== 200) throw new Error(`${procedure}: ${res.status()} ${await res.text()}`);
  return (await res.json()).result.data.json as T;
}

/** Every navigation entry, and one of each detail page from the demo (as e2e/every-page.spec.ts). */
async function pages(page: Page, url: string): Promise<string[]> {
  const hrefs = NAV.flatMap((s) => s.items).map((i) => i.href);
  const sources = await trpc<{ id: string; name: string }[]>(page, url, "sources.list", {});
  if (sources[0]) hrefs.push(`/tools/sources/${(sources.find((s) => s.name === "Team wiki (demo)") ?? sources[0]).id}`);
  const tools = await trpc<{ items: { id: string }[] }>(page, url, "catalog.listTools", {});
  if (tools.items[0]) hrefs.push(`/tools/catalog/${tools.items[0].id}`);
  const identities = await trpc<{ id: string }[]>(page, url, "identities.list", {});
  if (identities[0]) hrefs.push(`/agents/${identities[0].id}`);
  const scopes = await trpc<{ id: string }[]>(page, url, "scopes.list", undefined);
  if (scopes[0]) {
    hrefs.push(`/memory/scopes/${scopes[0].id}`);
    const hits = await trpc<{ hits: { id: string }[] }>(page, url, "memories.search", {
      scopeId: scopes[0].id,
      limit: 1,
    });
    if (hits.hits[0]) hrefs.push(`/memory/memories/${hits.hits[0].id}`);
    const threads = await trpc<{ items: { id: string }[] }>(page, url, "threads.list", {
      scopeId: scopes[0].id,
      limit: 1,
    });
    if (threads.items[0]) hrefs.push(`/memory/threads/${threads.items[0].id}`);
  }
  return hrefs;
}

/** A page still showing a skeleton after this is recorded as "over" and left. */
const GIVE_UP_MS = Number(process.env.BENCH_GIVE_UP_MS ?? 10_000);

/**
 * Milliseconds from navigation to the heading shown and no loading state left (Infinity:
 * never), and how much of it the server took to send the document's first byte.
 */
async function visit(page: Page, url: string): Promise<{ ms: number; documentMs: number }> {
  const started = performance.now();
  await page.goto(url, { waitUntil: "commit", timeout: GIVE_UP_MS });
  const settled = await page
    .waitForFunction(
      () => {
        const h1 = document.querySelector("main h1, h1");
        const shown = h1 instanceof HTMLElement && h1.offsetParent !== null;
        return shown && !document.querySelector('[data-testid="loading-state"]');
      },
      undefined,
      { polling: "raf", timeout: GIVE_UP_MS },
    )
    .then(
      () => true,
      () => false,
    );
  const ms = settled ? performance.now() - started : Number.POSITIVE_INFINITY;
  const documentMs = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return nav ? nav.responseStart - nav.startTime : Number.NaN;
  });
  return { ms, documentMs };
}

async function main() {
  const { url, admin, server } = await product();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.QM_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(`${url}/sign-in`);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
    const rows: string[][] = [];
    const load = os.loadavg()[0]?.toFixed(1);
    const only = process.env.BENCH_PAGES?.split(",");
    for (const href of await pages(page, url)) {
      if (only && !only.some((p) => href.startsWith(p))) continue;
      await visit(page, `${url}${href}`); // warm
      const visits: { ms: number; documentMs: number }[] = [];
      for (let i = 0; i < VISITS; i++) visits.push(await visit(page, `${url}${href}`));
      const times = visits.map((v) => v.ms).sort((a, b) => a - b);
      const documents = visits.map((v) => v.documentMs).sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
      const worst = times.at(-1) ?? Number.NaN;
      const ms = (t: number) => (Number.isFinite(t) ? `${t.toFixed(0)} ms` : `> ${GIVE_UP_MS / 1000} s`);
      const row = [
        href.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, ":id"),
        ms(median),
        ms(worst),
        ms(documents[Math.floor(documents.length / 2)] ?? Number.NaN),
        median < GOAL_MS ? "✓" : "✗",
      ];
      console.error(row.join("  "));
      rows.push(row);
    }
    console.log(
      `load average ${load} → ${os.loadavg()[0]?.toFixed(1)}; ${VISITS} warm visits a page; goal < ${GOAL_MS} ms`,
    );
    console.log(`${"page".padEnd(30)} ${"median".padEnd(8)} ${"worst".padEnd(8)} ${"document".padEnd(8)} goal`);
    for (const r of rows)
      console.log([r[0]?.padEnd(30), r[1]?.padEnd(8), r[2]?.padEnd(8), r[3]?.padEnd(8), r[4]].join(" "));
  } finally {
    await browser?.close();
    await server?.stop();
  }
  process.exit(0);
}

await main();
