/**
 * npm run bench:lists — frame times while scrolling every long console list at the
 * product's limits, in Chromium at 1440×900: the catalog (20,000 Tools), Holdings (an
 * identity holding all of them), Lost recently (20,000 losses), one check's changes
 * (8,000), the audit log (20,000 events), a memory scope's memories (20,000), its review
 * queue (5,000 proposals) and a thread's members (20,000), on the data set of
 * e2e/long-lists.spec.ts.
 *
 * Each list is scrolled steadily (180 px a frame, like a fast wheel, for BENCH_FRAMES
 * frames) and then dragged to 30 random points (10 frames at each); every frame's
 * duration is recorded from requestAnimationFrame, alongside long tasks (over 50 ms, by
 * wall time and by main-thread CPU time: tests/helpers/long-tasks.ts) and the most rows
 * the table ever had in the DOM. Goal, per list: p95 frame ≤ 33 ms (30 fps at worst),
 * p50 ≤ 17 ms, no task over 50 ms of CPU. Advisory: the machine is shared, so read the
 * table, not one run.
 * Needs a current build (`npm run build`, or `npm start` once); builds if there is none.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Locator, type Page } from "@playwright/test";
import { LONG_LISTS } from "@/tests/helpers/long-lists";
import { startLongListsServer } from "@/tests/helpers/long-lists-process";
import { longTasksDuring } from "@/tests/helpers/long-tasks";

const FRAMES = Number(process.env.BENCH_FRAMES ?? 600);
const JUMPS = 30;

if (!existsSync(path.resolve(".next", "BUILD_ID"))) {
  console.log("No build yet; building (about a minute)…");
  const built = spawnSync(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

interface Measured {
  frames: number[];
  maxRows: number;
}

/** Scrolls the list in the page and measures every frame. */
async function measure(scroller: Locator): Promise<Measured> {
  return scroller.evaluate(
    async (el, { frames, jumps }) => {
      const durations: number[] = [];
      let maxRows = 0;
      // Each step: a steady 180 px, or (after that) a jump to one of a fixed sequence of
      // "random" points, the same for every list and run, followed by 10 still frames.
      const steps: (number | null)[] = Array.from({ length: frames }, () => null);
      let seed = 17;
      for (let j = 0; j < jumps; j++) {
        seed = (seed * 48271) % 2147483647;
        steps.push(seed / 2147483647, ...Array.from({ length: 9 }, () => Number.NaN));
      }
      // (No named inner functions: this body is sent to the page as written.)
      let last = await new Promise<number>((r) => requestAnimationFrame(r));
      for (const step of steps) {
        if (step === null) el.scrollTop += 180;
        else if (!Number.isNaN(step)) el.scrollTo(0, (el.scrollHeight - el.clientHeight) * step);
        const now = await new Promise<number>((r) => requestAnimationFrame(r));
        durations.push(now - last);
        last = now;
        maxRows = Math.max(maxRows, el.querySelectorAll("tbody tr").length);
      }
      return { frames: durations, maxRows };
    },
    { frames: FRAMES, jumps: JUMPS },
  );
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

async function signedInPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/sign-in`);
  await page.getByLabel("Email").fill(LONG_LISTS.admin.email);
  await page.getByLabel("Password").fill(LONG_LISTS.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/tools\/catalog/);
  return page;
}

async function main() {
  console.log("Seeding 20,000 Tools, 20,000 losses, 20,000 audit events and 20,000 memories in a fresh data folder…");
  const server = await startLongListsServer();
  const browser = await chromium.launch({
    executablePath: process.env.QM_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const page = await signedInPage(browser, server.url);
    page.setDefaultTimeout(120_000);
    const lists: { name: string; path: string; scroll: string; row: string; open?: (page: Page) => Promise<void> }[] = [
      { name: "Tools Catalog, 20,000 Tools", path: "/tools/catalog", scroll: "catalog-scroll", row: "catalog-row" },
      {
        name: "Holdings, 20,000 Tools",
        path: `/agents/${server.identityId}?tab=holdings`,
        scroll: "holdings-scroll",
        row: "holding-row",
      },
      {
        name: "Lost recently, 20,000 losses",
        path: `/agents/${server.identityId}?tab=lost`,
        scroll: "lost-scroll",
        row: "change-row",
      },
      {
        name: "One check's changes, 8,000 Tools",
        path: `/tools/sources/${server.sourceIds[0]}?check=${server.checkId}`,
        scroll: "check-changes",
        row: "check-change-row",
      },
      { name: "Audit log, 20,000 events", path: "/settings/audit-log", scroll: "audit-scroll", row: "audit-row" },
      {
        name: "Memories of a scope, 20,000",
        path: `/memory/memories?scope=${server.memoryScopeId}`,
        scroll: "memories-scroll",
        row: "memory-hit",
      },
      {
        name: "Proposals to review, 5,000",
        path: `/memory/proposals?scope=${server.memoryScopeId}`,
        scroll: "proposals-scroll",
        row: "proposal-row",
      },
      {
        name: "A thread's members, 20,000",
        path: `/memory/threads/${server.memoryThreadId}`,
        scroll: "members-scroll",
        row: "member-row",
      },
    ];
    const rows: string[][] = [];
    for (const list of lists) {
      await page.goto(`${server.url}${list.path}`, { waitUntil: "domcontentloaded" });
      await page.getByTestId(list.row).first().waitFor();
      // Let the first paint and its follow-up requests settle before measuring.
      await page.waitForTimeout(1000);
      let m: Measured = { frames: [], maxRows: 0 };
      const tasks = await longTasksDuring(browser, page, async () => {
        m = await measure(page.getByTestId(list.scroll));
      });
      const p50 = percentile(m.frames, 50);
      const p95 = percentile(m.frames, 95);
      const met = p50 <= 17 && p95 <= 33 && tasks.cpu.length === 0;
      rows.push([
        list.name,
        `${p50.toFixed(1)} ms`,
        `${p95.toFixed(1)} ms`,
        `${Math.max(...m.frames).toFixed(0)} ms`,
        tasks.wall.length ? `${tasks.wall.length} (max ${Math.max(...tasks.wall)} ms)` : "0",
        tasks.cpu.length ? `${tasks.cpu.length} (max ${Math.max(...tasks.cpu)} ms)` : "0",
        String(m.maxRows),
        met ? "✓" : "✗",
      ]);
    }
    const header = [
      "List",
      "p50 frame",
      "p95 frame",
      "worst",
      "long tasks (wall)",
      "long tasks (CPU)",
      "most rows in DOM",
      "goal",
    ];
    const table = [header, ...rows];
    const widths = header.map((_, c) => Math.max(...table.map((r) => (r[c] as string).length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
    console.log(
      `\nScrolling each list: ${FRAMES} frames at 180 px, then ${JUMPS} jumps of 10 frames; Chromium 1440×900; goal p50 ≤ 17 ms, p95 ≤ 33 ms (seeded in ${(server.seedMs / 1000).toFixed(1)} s)\n`,
    );
    console.log(line(header));
    console.log(line(widths.map((w) => "-".repeat(w))));
    for (const r of rows) console.log(line(r));
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
