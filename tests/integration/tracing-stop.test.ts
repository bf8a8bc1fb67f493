/**
 * Stopping while the trace collector is down or hangs: the last spans get a bounded moment
 * (TRACING_STOP_MS), the stop never rejects (no unhandledRejection at exit), and tracing is
 * off afterwards. Real loopback receivers: one that never answers, one port that refuses.
 */
import { trace } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { INSTANCE_LIMITS } from "@/server/limits";
import { startTracing, stopTracing, withSpan } from "@/server/observability/tracing";
import { freePort } from "../helpers/instances";
import { startOtlpReceiver } from "../helpers/otlp-receiver";

const SLACK_MS = 1_000;

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function timedStop(): Promise<number> {
  const started = Date.now();
  await stopTracing();
  return Date.now() - started;
}

describe("stopping tracing", () => {
  it("with a collector that never answers, takes at most TRACING_STOP_MS and turns tracing off", async () => {
    const receiver = await startOtlpReceiver("hang");
    closers.push(receiver.close);
    await startTracing(receiver.url);
    await withSpan("test.span", {}, async () => {});
    const waited = await timedStop();
    expect(receiver.state.requests).toBeGreaterThan(0);
    expect(waited).toBeLessThan(INSTANCE_LIMITS.TRACING_STOP_MS.value + SLACK_MS);
    // Off: a new span is a no-op one.
    expect(trace.getTracer("quartermaster").startSpan("after").isRecording()).toBe(false);
  });

  it("with nothing listening, resolves without rejecting", async () => {
    const port = await freePort();
    await startTracing(`http://127.0.0.1:${port}`);
    await withSpan("test.span", {}, async () => {});
    const waited = await timedStop();
    expect(waited).toBeLessThan(INSTANCE_LIMITS.TRACING_STOP_MS.value + SLACK_MS);
  });
});
