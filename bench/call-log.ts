/**
 * What watching a call costs it: `observeToolCall` (span check, rate-limit lookup, call
 * log row queued, metrics) around a dispatch that does nothing, against the same dispatch
 * bare, in rounds that alternate so drifting load cancels out; and how long writing the
 * queued rows takes the background writer per 500-row batch. Also one call under a
 * calls-a-minute limit (one upsert on the database).
 */
import { type Actor, SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { answered } from "@/server/domain/agent-tools/result";
import { observeToolCall } from "@/server/domain/calls/observe";
import { flushCallLog, pendingCallLogRows } from "@/server/domain/calls/recorder";
import { createIdentity } from "@/server/domain/identities/identities";
import { forgetLimitTable } from "@/server/domain/rate-limits/config";

type Row = { name: string; value: string; goal: string; verdict: string };

const ROUNDS = 10;
const CALLS = 2_000;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function benchCallLog(): Promise<Row[]> {
  const identity = await createIdentity(SYSTEM, { name: `bench-call-log-${Date.now()}` });
  const actor: Actor = { kind: "agent", identityId: identity.id, tokenId: "bench", label: "bench" };
  const result = answered({ content: [{ type: "text", text: "ok" }], structuredContent: { ok: true } });
  const dispatch = async () => result;
  const args = { query: "weather in Oslo", limit: 5 };

  const bare: number[] = [];
  const watched: number[] = [];
  const batches: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await dispatch();
    bare.push((performance.now() - t0) / CALLS);
    t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await observeToolCall(actor, { name: "find_tools", arguments: args }, dispatch);
    watched.push((performance.now() - t0) / CALLS);
    const queued = pendingCallLogRows();
    t0 = performance.now();
    await flushCallLog();
    batches.push(((performance.now() - t0) / queued) * 500);
  }
  const overhead = median(watched) - median(bare);

  // One calls-a-minute limit: each call counts itself with one upsert.
  const db = await getDb();
  await db.rateLimit.create({
    data: { subjectType: "identity", subjectId: identity.id, perMinute: 1_000_000, updatedBy: "bench" },
  });
  forgetLimitTable();
  const limited: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now();
    await observeToolCall(actor, { name: "find_tools", arguments: args }, dispatch);
    limited.push(performance.now() - t0);
  }
  await flushCallLog();
  await db.rateLimit.deleteMany({ where: { subjectId: identity.id } });
  forgetLimitTable();

  return [
    {
      name: "Watching one Tool Call: span, limits, call log row, metrics (no limit set)",
      value: `${us(overhead)} per call (bare ${us(median(bare))}, watched ${us(median(watched))})`,
      goal: "≤ 100 µs",
      verdict: overhead <= 0.1 ? "✓" : "✗",
    },
    {
      name: "  writing call log rows (background, per 500-row batch)",
      value: `${median(batches).toFixed(1)} ms`,
      goal: "reported",
      verdict: "—",
    },
    {
      name: "  one call under a calls-a-minute limit (one upsert)",
      value: `${median(limited).toFixed(2)} ms p50`,
      goal: "reported",
      verdict: "—",
    },
  ];
}
