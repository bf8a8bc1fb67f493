/**
 * Long tasks on the page's main thread while something happens, from a Chromium trace:
 * each task's wall time and its main-thread CPU time. On a shared machine wall time
 * measures the machine (a renderer given a quarter of a CPU turns 15 ms of work into a
 * 60 ms "long task"); CPU time measures the page's own work, so tests judge by it and
 * report both.
 */
import type { Browser, Page } from "@playwright/test";

export interface LongTasks {
  /** Tasks that used more than 50 ms of main-thread CPU, in ms. */
  cpu: number[];
  /** Tasks that took more than 50 ms of wall time (what PerformanceObserver reports), in ms. */
  wall: number[];
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export async function longTasksDuring(browser: Browser, page: Page, action: () => Promise<void>): Promise<LongTasks> {
  await browser.startTracing(page, { categories: ["disabled-by-default-devtools.timeline"] });
  let failure: unknown = null;
  await action().catch((error: unknown) => {
    failure = error ?? new Error("action failed");
  });
  const trace = await browser.stopTracing();
  if (failure) throw failure;
  const { traceEvents } = JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] };
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = traceEvents.filter((e) => e.ph === "X" && e.name === "RunTask" && main.has(`${e.pid}:${e.tid}`));
  const over = (us: number | undefined) => (us ?? 0) > 50_000;
  return {
    cpu: tasks.filter((t) => over(t.tdur)).map((t) => Math.round((t.tdur ?? 0) / 1000)),
    wall: tasks.filter((t) => over(t.dur)).map((t) => Math.round((t.dur ?? 0) / 1000)),
  };
}
