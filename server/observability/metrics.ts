/**
 * Prometheus metrics of this instance, served at /api/metrics in the text exposition
 * format. Each instance counts its own; Prometheus scrapes every instance and sums. Labels
 * stay few and bounded (outcomes, failure codes, kinds): never a Tool, identity or Source,
 * whose numbers have no ceiling.
 *
 * Kept on globalThis: Next.js bundles each route apart, and /mcp, tRPC and the scheduler
 * must all count into the registry /api/metrics reads.
 */

type Labels = Record<string, string>;

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
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string[] {
    return [...this.values].map(([key, value]) => `${this.name}${braces(key)} ${value}`);
  }
}

export class Gauge implements Metric {
  readonly type = "gauge";
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number,
  ) {}
  render(): string[] {
    return [`${this.name} ${this.read()}`];
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

function createMetrics() {
  return {
    mcpRequests: new Counter("qm_mcp_requests_total", "HTTP requests to /mcp, by status code."),
    mcpRequestSeconds: new Histogram("qm_mcp_request_duration_seconds", "Time to answer one /mcp request."),
    toolCalls: new Counter(
      "qm_tool_calls_total",
      "Tool Calls through /mcp, by kind (catalog, built_in), outcome (ok, is_error, failed) and failure code.",
    ),
    toolCallSeconds: new Histogram(
      "qm_tool_call_duration_seconds",
      "Duration of one Tool Call through /mcp, by kind and outcome.",
    ),
    rateLimited: new Counter(
      "qm_rate_limited_total",
      "Tool Calls refused as RATE_LIMITED, by the limit that refused them.",
    ),
    catalogChecks: new Counter(
      "qm_catalog_checks_total",
      "Catalog checks of MCP Connections, by outcome and failure code.",
    ),
    catalogCheckSeconds: new Histogram(
      "qm_catalog_check_duration_seconds",
      "Duration of one catalog check, by outcome.",
    ),
    callLogDropped: new Counter(
      "qm_call_log_dropped_total",
      "Call log rows dropped because the database could not take them in time.",
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

/** Every metric in the Prometheus text exposition format (version 0.0.4). */
export function renderMetrics(): string {
  const all: Metric[] = [...Object.values(metrics), ...(holder[KEY]?.gauges ?? [])];
  const out: string[] = [];
  for (const m of all) {
    out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`, ...m.render());
  }
  return `${out.join("\n")}\n`;
}
