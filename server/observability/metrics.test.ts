import { describe, expect, it } from "vitest";
import { Counter, Histogram } from "./metrics";

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
});
