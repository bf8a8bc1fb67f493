import { describe, expect, it } from "vitest";
import { wake, wakeAll, watch } from "./wakeups";

const elapsed = async (fn: () => Promise<void>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

describe("in-process wake-ups", () => {
  it("are not lost when they come while the waiter is busy reading, not yet pausing", async () => {
    const answered = watch("call:busy");
    wake("call:busy"); // the result lands while the waiter reads the database
    expect(await elapsed(() => answered.pause(5_000))).toBeLessThan(1_000);
    answered.close();
  });

  it("wake a pausing waiter at once, and only waiters of that key", async () => {
    const mine = watch("source:a");
    const other = watch("source:b");
    setTimeout(() => wake("source:a"), 20);
    expect(await elapsed(() => mine.pause(5_000))).toBeLessThan(1_000);
    // Seen already: the next pause waits for a new one (here, its timeout).
    expect(await elapsed(() => mine.pause(50))).toBeGreaterThanOrEqual(40);
    expect(await elapsed(() => other.pause(50))).toBeGreaterThanOrEqual(40);
    mine.close();
    other.close();
  });

  it("end a pause when its signal aborts", async () => {
    const w = watch("call:abort");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await elapsed(() => w.pause(5_000, controller.signal))).toBeLessThan(1_000);
    w.close();
  });

  it("keep nothing for keys nobody watches", async () => {
    wake("call:nobody"); // a result for a call waited on by another instance
    const later = watch("call:nobody");
    expect(await elapsed(() => later.pause(50))).toBeGreaterThanOrEqual(40);
    later.close();
  });

  it("end a pause watching several keys when any one of them is signalled", async () => {
    const w = watch("call:several", "host:several");
    setTimeout(() => wake("host:several"), 20); // the host was withdrawn: its queued calls fail
    expect(await elapsed(() => w.pause(5_000))).toBeLessThan(1_000);
    w.close();
  });

  it("all end at once after wakeAll (a listener that reconnected may have missed signals)", async () => {
    const a = watch("source:all-a");
    const b = watch("call:all-b");
    setTimeout(() => wakeAll(), 20);
    const [ta, tb] = await Promise.all([elapsed(() => a.pause(5_000)), elapsed(() => b.pause(5_000))]);
    expect(Math.max(ta, tb)).toBeLessThan(1_000);
    a.close();
    b.close();
  });
});
