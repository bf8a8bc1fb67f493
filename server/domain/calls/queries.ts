/**
 * Reading the call log: the list (newest first, block-loaded by the console, with the
 * same filters in the URL), one call with its captured payload (admins), and the numbers
 * an identity's, a Source's and a Tool's pages show.
 */
import { type Actor, actorRole, requireRole } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { notFound } from "../../errors";
import { pageArgs, pageOf } from "../paging";
import { parseInput } from "../validation";
import { type TCallStatsInput, type TListCallsInput, ZCallStatsInput, ZListCallsInput } from "./schemas";

const LISTED = {
  id: true,
  startedAt: true,
  durationMs: true,
  identityId: true,
  identityName: true,
  tokenId: true,
  toolName: true,
  builtIn: true,
  toolId: true,
  nativeName: true,
  sourceId: true,
  sourceName: true,
  outcome: true,
  failureCode: true,
  bytesIn: true,
  bytesOut: true,
  payloadExpiresAt: true,
} as const;

export async function listCalls(actor: Actor, raw: TListCallsInput) {
  requireRole(actor, "viewer");
  const input = parseInput(ZListCallsInput, raw);
  const db = await getDb();
  const where: Prisma.CallLogWhereInput = {
    identityId: input.identityId,
    sourceId: input.sourceId,
    toolId: input.toolId,
    toolName: input.tool,
    outcome: input.outcome,
    failureCode: input.failureCode,
    startedAt: input.from || input.to ? { gte: input.from, lte: input.to } : undefined,
  };
  const [rows, total] = await Promise.all([
    db.callLog.findMany({
      where,
      select: LISTED,
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      ...pageArgs(input),
    }),
    db.callLog.count({ where }),
  ]);
  const page = pageOf(rows, input);
  return {
    ...page,
    items: page.items.map(({ payloadExpiresAt, ...row }) => ({ ...row, captured: payloadExpiresAt !== null })),
    total,
  };
}

/** One call; its captured arguments and result to admins only. */
export async function getCall(actor: Actor, raw: { id: string }) {
  requireRole(actor, "viewer");
  const db = await getDb();
  const row = await db.callLog.findUnique({ where: { id: String(raw?.id ?? "") } });
  if (!row) throw notFound("Call");
  const admin = actorRole(actor) === "admin";
  // Which memories the payload carried is the payload's to tell, and it is only for erasure.
  const { memoryIds: _carried, ...call } = row;
  return {
    ...call,
    arguments: admin ? row.arguments : null,
    result: admin ? row.result : null,
    captured: row.payloadExpiresAt !== null,
  };
}

interface DayRow {
  day: Date;
  calls: number;
  failed: number;
  is_error: number;
  p50: number | null;
  p95: number | null;
}

/**
 * An identity's, a Source's or a Tool's calls over the last `days`: totals with the error
 * rate and p50/p95 latency, calls per day, and failures by code.
 */
export async function callStats(actor: Actor, raw: TCallStatsInput) {
  requireRole(actor, "viewer");
  const input = parseInput(ZCallStatsInput, raw);
  const db = await getDb();
  const column = { identity: "identityId", source: "sourceId", tool: "toolId" }[input.subject];
  // Rows hold UTC times without a zone (as Prisma writes them): compare in UTC whatever the session's zone.
  const sinceUtc = new Date(Date.now() - input.days * 86_400_000).toISOString().replace("Z", "");
  // The column name comes from the fixed map above, never from input.
  const filter = `"${column}" = $1 AND "startedAt" >= $2::timestamp`;
  const [totals, days, codes] = await Promise.all([
    db.$queryRawUnsafe<Omit<DayRow, "day">[]>(
      `SELECT count(*)::int AS calls,
              count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
              count(*) FILTER (WHERE outcome = 'is_error')::int AS is_error,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "durationMs") AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS p95
       FROM call_log WHERE ${filter}`,
      input.id,
      sinceUtc,
    ),
    db.$queryRawUnsafe<DayRow[]>(
      `SELECT date_trunc('day', "startedAt") AS day,
              count(*)::int AS calls,
              count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
              count(*) FILTER (WHERE outcome = 'is_error')::int AS is_error,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "durationMs") AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS p95
       FROM call_log WHERE ${filter} GROUP BY 1 ORDER BY 1`,
      input.id,
      sinceUtc,
    ),
    db.$queryRawUnsafe<{ code: string; count: number }[]>(
      `SELECT "failureCode" AS code, count(*)::int AS count
       FROM call_log WHERE ${filter} AND outcome = 'failed' GROUP BY 1 ORDER BY 2 DESC, 1`,
      input.id,
      sinceUtc,
    ),
  ]);
  const t = totals[0] ?? { calls: 0, failed: 0, is_error: 0, p50: null, p95: null };
  const ms = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  const byDay = new Map(days.map((d) => [new Date(d.day).toISOString().slice(0, 10), d]));
  return {
    days: input.days,
    calls: t.calls,
    failed: t.failed,
    isError: t.is_error,
    errorRate: t.calls ? (t.failed + t.is_error) / t.calls : 0,
    p50Ms: ms(t.p50),
    p95Ms: ms(t.p95),
    perDay: everyDay(input.days).map((day) => {
      const d = byDay.get(day);
      return {
        day,
        calls: d?.calls ?? 0,
        failed: d?.failed ?? 0,
        isError: d?.is_error ?? 0,
        p50Ms: ms(d?.p50 ?? null),
        p95Ms: ms(d?.p95 ?? null),
      };
    }),
    failuresByCode: codes,
  };
}

/** The last `days` UTC days, oldest first, today included: a day without calls still has a bar. */
function everyDay(days: number, now = Date.now()): string[] {
  return Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
