/**
 * Prometheus metrics of this instance, served at /api/metrics in the text exposition
 * format. Each instance counts its own; Prometheus scrapes every instance and sums. Labels
 * stay few and bounded (outcomes, failure codes, kinds): never a Tool, identity or Source,
 * whose numbers have no ceiling.
 *
 * Kept on globalThis: Next.js bundles each route apart, and /mcp, tRPC and the scheduler
 * must all count into the registry /api/metrics reads.
 */

import { readFileSync } from "node:fs";
import path from "node:path";

type Labels = Record<string, string>;

/** The installed version, from the package.json of the folder the server runs in. */
function installedVersion(): string {
  try {
    const raw = readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), "package.json"), "utf8");
    return String((JSON.parse(raw) as { version?: unknown }).version ?? "unknown");
  } catch {
    return "unknown";
  }
}
const VERSION = installedVersion();

/** Seconds; from a fast local call to the 60 s Tool Call limit. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Metric {
  name: string;
  help: string;
  type: "counter" | "histogram" | "gauge";
  render(): string[];
}

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`)
    .join(",");
}

const braces = (key: string) => (key ? `{${key}}` : "");

export class Counter implements Metric {
  readonly type = "counter";
  private readonly values = new Map<string, number>();
  /**
   * `initial`: the series shown at 0 before their first event, so `rate()` and `absent()`
   * see the counter from the start (an unlabelled counter: one series, `{}`).
   */
  constructor(
    readonly name: string,
    readonly help: string,
    initial: Labels[] = [],
  ) {
    for (const labels of initial) this.values.set(labelKey(labels), 0);
  }
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string[] {
    return [...this.values].map(([key, value]) => `${this.name}${braces(key)} ${value}`);
  }
}

/** A labelled value read when scraped. */
export interface Sample {
  labels: Labels;
  value: number;
}

/** A value read when scraped: a gauge, or a counter kept elsewhere (the process's CPU time). */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number | Sample[],
    readonly type: "gauge" | "counter" = "gauge",
  ) {}
  render(): string[] {
    const value = this.read();
    if (typeof value === "number") return [`${this.name} ${value}`];
    return value.map((s) => `${this.name}${braces(labelKey(s.labels))} ${s.value}`);
  }
}

export class Histogram implements Metric {
  readonly type = "histogram";
  private readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: number[] = LATENCY_BUCKETS,
  ) {}
  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.bounds.length; i++) if (value <= (this.bounds[i] as number)) (s.buckets[i] as number)++;
    s.sum += value;
    s.count++;
  }
  render(): string[] {
    const lines: string[] = [];
    for (const [key, s] of this.series) {
      const sep = key ? "," : "";
      this.bounds.forEach((bound, i) => {
        lines.push(`${this.name}_bucket{${key}${sep}le="${bound}"} ${s.buckets[i]}`);
      });
      lines.push(`${this.name}_bucket{${key}${sep}le="+Inf"} ${s.count}`);
      lines.push(`${this.name}_sum${braces(key)} ${s.sum}`);
      lines.push(`${this.name}_count${braces(key)} ${s.count}`);
    }
    return lines;
  }
}

const cross = (kinds: string[], outcomes: string[]) =>
  kinds.flatMap((kind) => outcomes.map((outcome) => ({ kind, outcome, code: "" })));

function createMetrics() {
  return {
    mcpRequests: new Counter("qm_mcp_requests_total", "HTTP requests to /mcp, by status code.", [{ status: "200" }]),
    mcpRequestSeconds: new Histogram("qm_mcp_request_duration_seconds", "Time to answer one /mcp request."),
    toolCalls: new Counter(
      "qm_tool_calls_total",
      "Tool Calls through /mcp, by kind (catalog, built_in; a held Source's resource reads and prompt gets: resource, prompt), outcome (ok, is_error, failed) and failure code.",
      cross(["catalog", "built_in"], ["ok", "is_error"]),
    ),
    toolCallSeconds: new Histogram(
      "qm_tool_call_duration_seconds",
      "Duration of one Tool Call through /mcp, by kind and outcome.",
    ),
    rateLimited: new Counter(
      "qm_rate_limited_total",
      "Tool Calls refused as RATE_LIMITED, by the limit that refused them.",
      ["identity", "tool"].flatMap((subject) => ["per_minute", "concurrent"].map((limit) => ({ subject, limit }))),
    ),
    catalogChecks: new Counter(
      "qm_catalog_checks_total",
      "Catalog checks of MCP Connections, by outcome and failure code.",
      [{ outcome: "succeeded", code: "" }],
    ),
    catalogCheckSeconds: new Histogram(
      "qm_catalog_check_duration_seconds",
      "Duration of one catalog check, by outcome.",
    ),
    callLogDropped: new Counter(
      "qm_call_log_dropped_total",
      "Call log rows dropped because the database could not take them in time.",
      [{}],
    ),
    traceExports: new Counter(
      "qm_trace_exports_total",
      "Batches of spans sent to the OTLP collector, by outcome (sent, failed).",
      [{ outcome: "sent" }, { outcome: "failed" }],
    ),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const KEY = Symbol.for("quartermaster.metrics");
type Holder = { [KEY]?: { metrics: Metrics; gauges: Gauge[] } };
const holder = globalThis as Holder;
holder[KEY] ??= { metrics: createMetrics(), gauges: [] };

export const metrics: Metrics = holder[KEY].metrics;

/** A value read at scrape time (e.g. rows waiting to be written); one per name. */
export function registerGauge(name: string, help: string, read: () => number): void {
  const gauges = holder[KEY]?.gauges ?? [];
  const at = gauges.findIndex((g) => g.name === name);
  const gauge = new Gauge(name, help, read);
  if (at >= 0) gauges[at] = gauge;
  else gauges.push(gauge);
}

const startedAt = Date.now() / 1000 - process.uptime();

/** The process and its runtime: what any Prometheus target is expected to say about itself. */
function processMetrics(): Metric[] {
  return [
    new Gauge("qm_build_info", "This instance's version and Node.js runtime (always 1).", () => [
      { labels: { version: VERSION, node: process.version }, value: 1 },
    ]),
    new Gauge("process_start_time_seconds", "When the process started, in seconds since the epoch.", () => startedAt),
    new Gauge(
      "process_cpu_seconds_total",
      "User and system CPU time the process has used, in seconds.",
      () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1e6;
      },
      "counter",
    ),
    new Gauge("process_resident_memory_bytes", "Resident memory of the process.", () => process.memoryUsage.rss()),
    new Gauge("nodejs_heap_used_bytes", "V8 heap in use.", () => process.memoryUsage().heapUsed),
  ];
}

/** Every metric in the Prometheus text exposition format (version 0.0.4); `extra`: read for this scrape. */
export function renderMetrics(extra: Metric[] = []): string {
  const all: Metric[] = [...Object.values(metrics), ...(holder[KEY]?.gauges ?? []), ...processMetrics(), ...extra];
  const out: string[] = [];
  for (const m of all) {
    out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`, ...m.render());
  }
  return `${out.join("\n")}\n`;
}
