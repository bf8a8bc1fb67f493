import { describe, expect, it } from "vitest";
import { Counter, Histogram, renderMetrics } from "./metrics";

describe("Prometheus text", () => {
  it("counts by label set, with label values escaped", () => {
    const c = new Counter("qm_test_total", "help");
    c.inc({ outcome: "ok" });
    c.inc({ outcome: "ok" }, 2);
    c.inc({ outcome: 'say "hi"\n' });
    expect(c.render()).toEqual(['qm_test_total{outcome="ok"} 3', 'qm_test_total{outcome="say \\"hi\\"\\n"} 1']);
  });

  it("renders cumulative histogram buckets ending in +Inf, with sum and count", () => {
    const h = new Histogram("qm_test_seconds", "help", [0.1, 1]);
    h.observe({ kind: "catalog" }, 0.05);
    h.observe({ kind: "catalog" }, 0.5);
    h.observe({ kind: "catalog" }, 5);
    expect(h.render()).toEqual([
      'qm_test_seconds_bucket{kind="catalog",le="0.1"} 1',
      'qm_test_seconds_bucket{kind="catalog",le="1"} 2',
      'qm_test_seconds_bucket{kind="catalog",le="+Inf"} 3',
      'qm_test_seconds_sum{kind="catalog"} 5.55',
      'qm_test_seconds_count{kind="catalog"} 3',
    ]);
  });

  it("shows every counter from the start, at 0, with the process, runtime and build info", () => {
    const text = renderMetrics();
    const counters = [...text.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1] as string);
    expect(counters).toEqual(
      expect.arrayContaining(["qm_tool_calls_total", "qm_trace_exports_total", "process_cpu_seconds_total"]),
    );
    for (const name of counters) {
      const samples = text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
      expect(samples.length, name).toBeGreaterThan(0);
    }
    expect(text).toContain('qm_tool_calls_total{code="",kind="built_in",outcome="ok"} 0');
    expect(text).toContain('qm_trace_exports_total{outcome="failed"} 0');
    expect(text).toContain("qm_call_log_dropped_total 0");
    expect(text).toMatch(/^qm_build_info\{node="v\d+\.\d+\.\d+",version="\d+\.\d+\.\d+"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    // Each family once: HELP and TYPE lines are unique.
    const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
    expect(new Set(types).size).toBe(types.length);
  });
});
