/**
 * Rate limits as operators set them (per Agent Identity, per Tool), and as /mcp reads
 * them: every instance keeps the whole (small) table in memory and reads it again after
 * RATE_LIMIT_CONFIG_MS, so a call without a limit costs no query, and a change reaches
 * every instance within that time (at once on the instance that made it).
 */
import { actorLabel } from "../../actor";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { type TRateLimitSubject, ZRateLimitSubject, ZSetRateLimitInput } from "./schemas";

export interface Limit {
  perMinute: number | null;
  concurrent: number | null;
}

export interface LimitTable {
  identity: Map<string, Limit>;
  /** By model-facing name, the name a call arrives with; with the Tool's id for its counters. */
  toolByName: Map<string, Limit & { toolId: string }>;
  readAt: number;
}

const KEY = Symbol.for("quartermaster.rate-limits");
type Holder = { [KEY]?: { table: LimitTable | null; reading: Promise<LimitTable> | null } };
const holder = globalThis as Holder;
holder[KEY] ??= { table: null, reading: null };
const cache = holder[KEY];

async function readTable(): Promise<LimitTable> {
  const db = await getDb();
  const rows = await db.rateLimit.findMany();
  const toolIds = rows.filter((r) => r.subjectType === "tool").map((r) => r.subjectId);
  const tools = toolIds.length
    ? await db.tool.findMany({ where: { id: { in: toolIds } }, select: { id: true, modelFacingName: true } })
    : [];
  const nameOf = new Map(tools.map((t) => [t.id, t.modelFacingName]));
  const table: LimitTable = { identity: new Map(), toolByName: new Map(), readAt: Date.now() };
  for (const r of rows) {
    const limit = { perMinute: r.perMinute, concurrent: r.concurrent };
    if (r.subjectType === "identity") table.identity.set(r.subjectId, limit);
    else {
      const name = nameOf.get(r.subjectId);
      if (name) table.toolByName.set(name, { ...limit, toolId: r.subjectId });
    }
  }
  return table;
}

/** The limits in force on this instance, read again when older than RATE_LIMIT_CONFIG_MS. */
export async function limitTable(now = Date.now()): Promise<LimitTable> {
  const fresh = cache.table && now - cache.table.readAt < LIMITS.RATE_LIMIT_CONFIG_MS.value;
  if (fresh && cache.table) return cache.table;
  cache.reading ??= readTable().finally(() => {
    cache.reading = null;
  });
  cache.table = await cache.reading;
  return cache.table;
}

/** Forgets the limits read, so the next call reads them (after a change, and in tests). */
export function forgetLimitTable(): void {
  cache.table = null;
}

async function subjectLabel(subject: TRateLimitSubject): Promise<string> {
  const db = await getDb();
  if (subject.subjectType === "identity") {
    const identity = await db.agentIdentity.findUnique({ where: { id: subject.subjectId }, select: { name: true } });
    if (!identity) throw notFound("Agent Identity");
    return identity.name;
  }
  const tool = await db.tool.findUnique({
    where: { id: subject.subjectId },
    select: { nativeName: true, modelFacingName: true },
  });
  if (!tool) throw notFound("Tool");
  return tool.modelFacingName ?? tool.nativeName;
}

export const getRateLimit = operation(
  { role: "viewer", input: ZRateLimitSubject },
  async (_actor, subject): Promise<Limit> => {
    const db = await getDb();
    const row = await db.rateLimit.findUnique({ where: { subjectType_subjectId: subject } });
    return { perMinute: row?.perMinute ?? null, concurrent: row?.concurrent ?? null };
  },
);

/** Sets (or, with both null, removes) the limit of an identity or a Tool. Operators and admins. */
export const setRateLimit = operation(
  { role: "operator", input: ZSetRateLimitInput },
  async (actor, input): Promise<Limit> => {
    const subject = { subjectType: input.subjectType, subjectId: input.subjectId };
    const label = await subjectLabel(subject);
    const db = await getDb();
    await db.$transaction(async (tx) => {
      if (input.perMinute === null && input.concurrent === null) await tx.rateLimit.deleteMany({ where: subject });
      else {
        const values = { perMinute: input.perMinute, concurrent: input.concurrent, updatedBy: actorLabel(actor) };
        await tx.rateLimit.upsert({
          where: { subjectType_subjectId: subject },
          create: { ...subject, ...values },
          update: values,
        });
      }
      await recordAudit(tx, actor, {
        action: "rate_limit.set",
        targetType: input.subjectType,
        targetId: input.subjectId,
        targetLabel: label,
        details: { perMinute: input.perMinute, concurrent: input.concurrent },
      });
    });
    forgetLimitTable();
    return { perMinute: input.perMinute, concurrent: input.concurrent };
  },
);
