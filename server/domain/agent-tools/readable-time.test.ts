import { describe, expect, it } from "vitest";
import { readableTime } from "./readable-time";

describe("a time in an agent's error", () => {
  const now = new Date("2026-12-02T00:25:00.000Z");
  it("reads as a UTC minute with how long ago or until", () => {
    expect(readableTime(new Date("2026-12-01T21:25:07.175Z"), now)).toBe("2026-12-01 21:25 UTC (3 hours ago)");
    expect(readableTime(new Date("2026-12-02T00:24:30.000Z"), now)).toBe("2026-12-02 00:24 UTC (30 seconds ago)");
    expect(readableTime(new Date("2026-12-02T00:40:00.000Z"), now)).toBe("2026-12-02 00:40 UTC (in 15 minutes)");
    expect(readableTime(new Date("2026-11-28T00:25:00.000Z"), now)).toBe("2026-11-28 00:25 UTC (4 days ago)");
    expect(readableTime(now, now)).toBe("2026-12-02 00:25 UTC (just now)");
  });
});
