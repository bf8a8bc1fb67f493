import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { DomainError, notFound } from "../../errors";
import { recordAudit } from "../audit/record";
import { pageArgs, pageOf } from "../paging";
import { ZChecksInput, ZSourceIdInput } from "../sources/schemas";
import { parseInput } from "../validation";
import { type CheckOutcome, runCatalogCheck } from "./check";
import { storedFailure } from "./failures";
import { claimSource, runLeased } from "./lease";
import { ZCheckChangesInput } from "./schemas";

const CHECK_SELECT = {
  id: true,
  trigger: true,
  status: true,
  startedAt: true,
  finishedAt: true,
  failureCode: true,
  failureMessage: true,
  failureDetails: true,
  pages: true,
  tools: true,
  bytes: true,
  added: true,
  removed: true,
  changed: true,
} as const;

/** The first check of the Source to finish at or after `since`, as an outcome; null if none yet. */
async function checkFinishedSince(sourceId: string, since: Date): Promise<CheckOutcome | null> {
  const db = await getDb();
  const latest = await db.catalogCheck.findFirst({
    where: { sourceId, status: { not: "running" }, finishedAt: { gte: since } },
    orderBy: { finishedAt: "asc" },
    select: CHECK_SELECT,
  });
  if (!latest) return null;
  return {
    checkId: latest.id,
    status: latest.status as CheckOutcome["status"], // finished: never "running"
    failure: storedFailure(latest.failureCode, latest.failureMessage, latest.failureDetails) ?? undefined,
    added: latest.added,
    removed: latest.removed,
    changed: latest.changed,
    pages: latest.pages,
    tools: latest.tools,
    bytes: latest.bytes,
  };
}

// How long "Check now" waits for a check that holds the Source: past the slowest legal check.
const WAIT_FOR_RUNNING_MS = 150_000;

/**
 * "Check now": runs a check and returns when it has finished, with its outcome. When a
 * check of the Source is already running (here or on another instance), waits for that
 * one instead of starting a second.
 */
export async function checkNow(actor: Actor, raw: { id: string }): Promise<CheckOutcome> {
  requireRole(actor, "operator");
  const { id } = parseInput(ZSourceIdInput, raw);
  const db = await getDb();
  const source = await db.source.findUnique({
    where: { id },
    select: { kind: true, name: true },
  });
  if (!source) throw notFound("Source");
  if (source.kind !== "mcp_connection") {
    throw new DomainError(
      "INVALID_INPUT",
      "id: SDK Tool Hosts publish by registering; only MCP Connections are checked.",
      { field: "id" },
    );
  }
  const requestedAt = new Date();
  await recordAudit(db, actor, {
    action: "source.check_now",
    targetType: "source",
    targetId: id,
    targetLabel: source.name,
  });
  const runClaimed = () => runLeased(id, (lost) => runCatalogCheck(id, "manual", { signal: lost }));
  if (await claimSource(id)) return runClaimed();
  const deadline = Date.now() + WAIT_FOR_RUNNING_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const finished = await checkFinishedSince(id, requestedAt);
    if (finished) return finished;
    // The holder had finished before this request came and has let go since: run one now.
    if (await claimSource(id)) return runClaimed();
  }
  throw new DomainError("CONFLICT", "Another check of this Source is still running; try again shortly.");
}

export async function listChecks(actor: Actor, raw: { id: string; limit?: number; cursor?: string }) {
  requireRole(actor, "viewer");
  const input = parseInput(ZChecksInput, raw);
  const db = await getDb();
  const where = { sourceId: input.id };
  const [rows, total] = await Promise.all([
    db.catalogCheck.findMany({
      where,
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      ...pageArgs(input),
      select: CHECK_SELECT,
    }),
    db.catalogCheck.count({ where }),
  ]);
  return { ...pageOf(rows, input), total };
}

/** The running check of a Source, if any, with pages, Tools and bytes so far. */
export async function checkProgress(actor: Actor, raw: { id: string }) {
  requireRole(actor, "viewer");
  const { id } = parseInput(ZSourceIdInput, raw);
  const db = await getDb();
  const running = await db.catalogCheck.findFirst({
    where: { sourceId: id, status: "running" },
    orderBy: { startedAt: "desc" },
    select: { id: true, startedAt: true, pages: true, tools: true, bytes: true },
  });
  return running ?? null;
}

/** Which Tools one check or registration added, removed or changed: by kind, then by name. */
export async function listCheckChanges(
  actor: Actor,
  raw: { checkId: string; search?: string; cursor?: string; limit?: number },
) {
  requireRole(actor, "viewer");
  const input = parseInput(ZCheckChangesInput, raw);
  const db = await getDb();
  const search = input.search?.trim();
  const where: Prisma.CatalogChangeWhereInput = {
    checkId: input.checkId,
    OR: search
      ? [
          { nativeName: { contains: search, mode: "insensitive" } },
          { modelFacingName: { contains: search, mode: "insensitive" } },
        ]
      : undefined,
  };
  const [rows, total] = await Promise.all([
    db.catalogChange.findMany({
      where,
      orderBy: [{ kind: "asc" }, { nativeName: "asc" }, { id: "asc" }],
      ...pageArgs(input),
      select: { id: true, kind: true, nativeName: true, modelFacingName: true, detail: true },
    }),
    db.catalogChange.count({ where }),
  ]);
  return { ...pageOf(rows, input), total };
}
