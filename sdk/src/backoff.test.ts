import { describe, expect, it } from "vitest";
import { Backoff } from "./backoff.ts";

describe("back-off", () => {
  it("doubles from the first wait up to the longest, each wait jittered between half and all of it", () => {
    const low = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0);
    const high = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0.999999);
    const lows = Array.from({ length: 7 }, () => low.next());
    const highs = Array.from({ length: 7 }, () => high.next());
    expect(highs).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    expect(lows).toEqual([50, 100, 200, 400, 500, 500, 500]);
  });

  it("starts over after a success", () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0.999999);
    b.next();
    b.next();
    expect(b.attempts).toBe(2);
    b.reset();
    expect(b.next()).toBe(100);
  });

  it("spreads hosts that failed together: waits differ with the random draw", () => {
    const waits = new Set(Array.from({ length: 20 }, () => new Backoff({ initialMs: 1000 }).next()));
    expect(waits.size).toBeGreaterThan(1);
    for (const w of waits) expect(w >= 500 && w <= 1000).toBe(true);
  });
});
