/**
 * Enforces rate limits across every instance on the shared database:
 * - calls per minute: one row per subject and minute (the database's clock, in UTC as Prisma
 *   stores times, so instances whose clocks differ still share windows), counted by an
 *   upsert that answers the new count. A fixed window, so a subject may burst up to twice
 *   its limit around a minute's turn. An instance claims a share of the window at once
 *   (claimSize: a twentieth of the limit, at most 100) and admits from it without a
 *   statement until it is used: under load a call costs a fraction of one. Never more
 *   than the limit is admitted; when several instances share one, up to a share less each
 *   may be (a share claimed and not used before the minute turns).
 * - concurrent calls: one lease row per call in flight, taken under a transaction-scoped
 *   advisory lock on the subject (so two instances cannot both take the last place) and
 *   deleted when the call ends; a crashed instance's leases lapse after the longest a
 *   Tool Call may take.
 * A refused call does not count: a window counted for it is given back.
 */
import { fmt } from "@/universal/format";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { type Limit, limitTable } from "./config";

export interface Refusal {
  subject: "identity" | "tool";
  kind: "per_minute" | "concurrent";
  limit: number;
  retryAfterMs: number;
  message: string;
}

export type Admission = { ok: true; release: () => Promise<void> } | { ok: false; refusal: Refusal };

const NOTHING = async () => {};

interface Subject {
  subject: "identity" | "tool";
  key: string;
  label: string;
  limit: Limit;
}

/** Counts the call against every limit that applies to it, or says which one refuses it and until when. */
export async function admitCall(call: {
  identityId: string;
  toolName: string;
  builtIn: boolean;
  /**
   * A task poll counts against calls per minute only: it is not a call in flight on its own,
   * and the poll that runs an approved call would otherwise need a second place at once.
   */
  perMinuteOnly?: boolean;
}): Promise<Admission> {
  const table = await limitTable();
  const subjects: Subject[] = [];
  const identityLimit = table.identity.get(call.identityId);
  if (identityLimit)
    subjects.push({
      subject: "identity",
      key: `identity:${call.identityId}`,
      label: "This Agent Identity",
      limit: identityLimit,
    });
  const toolLimit = call.builtIn ? undefined : table.toolByName.get(call.toolName);
  if (toolLimit)
    subjects.push({
      subject: "tool",
      key: `tool:${toolLimit.toolId}`,
      label: `Tool ${call.toolName}`,
      limit: toolLimit,
    });
  if (!subjects.length) return { ok: true, release: NOTHING };

  const counted: { key: string; windowStart: Date }[] = [];
  const leases: string[] = [];
  // A call refused by a later subject hands its place back to this instance's claim.
  const giveBack = async () => {
    const db = await getDb();
    for (const w of counted) {
      const held = claimed.get(w.key);
      if (held && held.windowStart.getTime() === w.windowStart.getTime()) held.left++;
    }
    if (leases.length) await db.callLease.deleteMany({ where: { id: { in: leases } } });
  };
  for (const s of subjects) {
    const refusal =
      (s.limit.perMinute ? await countInWindow(s, s.limit.perMinute, counted) : null) ??
      (s.limit.concurrent && !call.perMinuteOnly ? await takeLease(s, s.limit.concurrent, leases) : null);
    if (refusal) {
      await giveBack();
      return { ok: false, refusal };
    }
  }
  if (!leases.length) return { ok: true, release: NOTHING };
  return {
    ok: true,
    release: async () => {
      const db = await getDb();
      await db.callLease.deleteMany({ where: { id: { in: leases } } });
    },
  };
}

/**
 * Counts `n` more events of `key` in this minute's window, shared by every instance; the
 * new count and when the window turns.
 */
export async function countThisMinute(key: string, n = 1) {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ count: number; windowStart: Date; retryAfterMs: number }[]>`
    INSERT INTO rate_window (key, "windowStart", count)
    VALUES (${key}, date_trunc('minute', (now() AT TIME ZONE 'UTC')), ${n}::int)
    ON CONFLICT (key, "windowStart") DO UPDATE SET count = rate_window.count + ${n}::int
    RETURNING count, "windowStart",
      ceil(extract(epoch FROM ("windowStart" + interval '1 minute' - (now() AT TIME ZONE 'UTC'))) * 1000)::int AS "retryAfterMs"`;
  return row ?? null;
}

/** How many of a window's calls an instance claims at once. */
export const claimSize = (limit: number) => Math.max(1, Math.min(100, Math.floor(limit / 20)));

/**
 * What this instance has claimed and not yet admitted, per key: valid until its window
 * turns (by this instance's clock, from what the database said was left of it).
 */
const claimed = new Map<string, { windowStart: Date; left: number; until: number }>();

async function giveBackToWindow(key: string, windowStart: Date, n: number): Promise<void> {
  if (n <= 0) return;
  const db = await getDb();
  await db.$executeRaw`UPDATE rate_window SET count = count - ${n}::int WHERE key = ${key} AND "windowStart" = ${windowStart}`;
}

async function countInWindow(
  s: Subject,
  limit: number,
  counted: { key: string; windowStart: Date }[],
): Promise<Refusal | null> {
  const held = claimed.get(s.key);
  if (held && held.left > 0 && Date.now() < held.until) {
    held.left--;
    counted.push({ key: s.key, windowStart: held.windowStart });
    return null;
  }
  const size = claimSize(limit);
  const row = await countThisMinute(s.key, size);
  if (!row) return null;
  // Of this claim, the calls the limit still had room for (all of them, some, or none).
  const granted = Math.max(0, Math.min(size, limit - (row.count - size)));
  await giveBackToWindow(s.key, row.windowStart, size - granted);
  if (granted > 0) {
    const until = Date.now() + Math.max(0, row.retryAfterMs);
    // Read again after the awaits: calls that claimed at the same moment each add their
    // leftover; the claim read before them would drop all but the last one's.
    const now = claimed.get(s.key);
    const same = now && now.windowStart.getTime() === row.windowStart.getTime() && Date.now() < now.until;
    if (claimed.size >= 10_000) for (const [key, c] of claimed) if (Date.now() >= c.until) claimed.delete(key);
    claimed.set(s.key, { windowStart: row.windowStart, left: (same ? now.left : 0) + granted - 1, until });
    counted.push({ key: s.key, windowStart: row.windowStart });
    return null;
  }
  const retryAfterMs = Math.max(1, row.retryAfterMs);
  return {
    subject: s.subject,
    kind: "per_minute",
    limit,
    retryAfterMs,
    message: `${s.label} may start at most ${fmt(limit)} Tool Calls a minute; this minute's are used. Retry in ${fmt(Math.ceil(retryAfterMs / 1000))} s.`,
  };
}

/** How long a lease outlives a call that never released it (its instance died). */
const LEASE_MS = Math.max(LIMITS.TOOL_CALL_MS.value, LIMITS.TOOL_CALL_TIMEOUT_MAX_SECONDS.value * 1000) + 5_000;
/** What to suggest to a call refused for concurrency: calls end at any moment. */
const CONCURRENT_RETRY_MS = 1_000;

async function takeLease(s: Subject, limit: number, leases: string[]): Promise<Refusal | null> {
  const db = await getDb();
  const [, taken] = await db.$transaction([
    db.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${s.key}))::text`,
    db.$queryRaw<{ id: string }[]>`
      INSERT INTO call_lease (id, key, "expiresAt")
      SELECT gen_random_uuid()::text, ${s.key}, (now() AT TIME ZONE 'UTC') + ${LEASE_MS} * interval '1 millisecond'
      WHERE (SELECT count(*) FROM call_lease WHERE key = ${s.key} AND "expiresAt" > (now() AT TIME ZONE 'UTC')) < ${limit}
      RETURNING id`,
  ]);
  const id = taken[0]?.id;
  if (id) {
    leases.push(id);
    return null;
  }
  return {
    subject: s.subject,
    kind: "concurrent",
    limit,
    retryAfterMs: CONCURRENT_RETRY_MS,
    message: `${s.label} may have at most ${fmt(limit)} Tool Calls in flight, and has. Retry when one has finished (in about ${fmt(CONCURRENT_RETRY_MS / 1000)} s).`,
  };
}

/** Drops windows no call counts in any more and leases of calls that never ended (the sweeper). */
export async function sweepRateCounters(): Promise<{ windows: number; leases: number }> {
  const db = await getDb();
  const windows =
    await db.$executeRaw`DELETE FROM rate_window WHERE "windowStart" < (now() AT TIME ZONE 'UTC') - interval '2 minutes'`;
  const leases = await db.$executeRaw`DELETE FROM call_lease WHERE "expiresAt" < (now() AT TIME ZONE 'UTC')`;
  return { windows, leases };
}
