/**
 * One catalog check of an MCP Connection: list with every limit enforced, then replace
 * the catalog atomically, or fail as a whole and leave the active catalog untouched.
 * Every check is recorded with its outcome and measurements.
 */
import { getDb } from "../../db";
import { type CheckFailure, DomainError, isCheckFailure, notFound } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { log } from "../../log";
import { openHeaders } from "../sources/headers";
import { loadUrlPolicy } from "../sources/network-policy";
import { DefinitionStager } from "./definitions";
import { internalCheckFailure } from "./failures";
import { type ListProgress, listMcpCatalog } from "./mcp-lister";
import { observeCatalogCheck } from "./observe-check";
import { publishCatalog, readCatalog } from "./publish";
import { fixPromptPrefix, recordSurface } from "./surface";

export type CheckTriggerKind = "schedule" | "manual" | "create";

export interface CheckOutcome {
  checkId: string;
  status: "succeeded" | "failed" | "cancelled";
  failure?: { code: string; message: string; details: Record<string, unknown> };
  added: number;
  removed: number;
  changed: number;
  pages: number;
  tools: number;
  bytes: number;
}

// Progress is written at most this often: live enough for the console, cheap for the database.
const PROGRESS_WRITE_MS = 200;

export function runCatalogCheck(
  sourceId: string,
  trigger: CheckTriggerKind,
  options: { signal?: AbortSignal } = {},
): Promise<CheckOutcome> {
  return observeCatalogCheck(sourceId, trigger, () => checkSource(sourceId, trigger, options));
}

async function checkSource(
  sourceId: string,
  trigger: CheckTriggerKind,
  options: { signal?: AbortSignal },
): Promise<CheckOutcome> {
  const db = await getDb();
  const source = await db.source.findUnique({
    where: { id: sourceId },
    select: {
      id: true,
      kind: true,
      name: true,
      url: true,
      encryptedHeaders: true,
      lastCheckAt: true,
      promptPrefix: true,
    },
  });
  if (!source?.url || source.kind !== "mcp_connection") throw notFound("MCP Connection");
  // A Connection's first check is the one its creation asked for, whoever runs it (the
  // scheduler picks a new Connection up at once; the console starts it on the new page).
  const labelled = source.lastCheckAt ? trigger : "create";
  const check = await db.catalogCheck.create({
    data: { sourceId, trigger: labelled },
    select: { id: true, startedAt: true },
  });
  let lastWrite = 0;
  let last: ListProgress = { pages: 0, tools: 0, bytes: 0 };

  const writeProgress = async (p: ListProgress, force = false) => {
    last = p;
    if (!force && Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = Date.now();
    await db.catalogCheck.updateMany({
      where: { id: check.id },
      data: { pages: p.pages, tools: p.tools, bytes: p.bytes },
    });
  };

  try {
    const headers = openHeaders(source, "CATALOG_CHECK_FAILED");
    const { allowLinkLocal } = await loadUrlPolicy();
    // Read while the server answers the first requests; publication reuses it if still current.
    const snapshot = readCatalog(db, sourceId);
    const stager = new DefinitionStager(snapshot.then((s) => new Set(s?.tools.map((t) => t.definitionHash))));
    const { tools, progress, protocolVersion, surface } = await listMcpCatalog({
      sourceId,
      url: source.url,
      headers,
      allowLinkLocal,
      signal: options.signal,
      onPage: (page) => stager.stage(page),
      onProgress: (p) => writeProgress(p),
    });
    const staged = await stager.staged();
    const finishedAt = new Date();
    const meta = { checkId: check.id, at: finishedAt, staged, snapshot: await snapshot };
    const result = await publishCatalog(sourceId, tools, meta, async (tx, r) => {
      await recordSurface(tx, sourceId, check.id, finishedAt, surface);
      await tx.catalogCheck.update({
        where: { id: check.id },
        data: {
          status: "succeeded",
          finishedAt,
          pages: progress.pages,
          tools: progress.tools,
          bytes: progress.bytes,
          added: r.added,
          removed: r.removed,
          changed: r.changed,
        },
      });
      await tx.source.update({
        where: { id: sourceId },
        data: {
          lastCheckAt: finishedAt,
          lastSuccessAt: finishedAt,
          failingSince: null,
          lastFailureCode: null,
          lastFailureMessage: null,
          lastFailureDetails: Prisma.DbNull,
          ...(protocolVersion ? { protocolVersion } : {}),
        },
      });
    });
    if (surface.some((list) => list.kind === "prompt" && list.items.length)) {
      // The names agents will use, for the console to show; /mcp would fix them on first use anyway.
      await fixPromptPrefix(source).catch((err) =>
        log.warn({ err, sourceId }, "a Source's prompt prefix could not be fixed after its check"),
      );
    }
    return {
      checkId: check.id,
      status: "succeeded",
      ...result,
      pages: progress.pages,
      tools: progress.tools,
      bytes: progress.bytes,
    };
  } catch (error) {
    if (!(await db.source.findUnique({ where: { id: sourceId }, select: { id: true } }))) {
      // Deleted while it was being checked: its checks went with it; nothing to record.
      return { checkId: check.id, status: "cancelled", added: 0, removed: 0, changed: 0, ...last };
    }
    let failure: CheckFailure;
    if (isCheckFailure(error)) failure = error;
    else if (options.signal?.aborted) {
      const reason = options.signal.reason;
      failure = new DomainError(
        "CATALOG_CHECK_FAILED",
        reason instanceof Error && reason.message.startsWith("Interrupted")
          ? reason.message
          : "Interrupted: Quartermaster was shutting down.",
      );
    } else {
      log.error({ err: error, sourceId, checkId: check.id }, "catalog check broke");
      failure = internalCheckFailure();
    }
    const finishedAt = new Date();
    await db.$transaction([
      db.catalogCheck.update({
        where: { id: check.id },
        data: {
          status: "failed",
          finishedAt,
          failureCode: failure.code,
          failureMessage: failure.message,
          failureDetails: (failure.details ?? {}) as never,
          pages: last.pages,
          tools: last.tools,
          bytes: last.bytes,
        },
      }),
      db.source.update({
        where: { id: sourceId },
        data: {
          lastCheckAt: finishedAt,
          lastFailureCode: failure.code,
          lastFailureMessage: failure.message,
          lastFailureDetails: (failure.details ?? {}) as never,
        },
      }),
      db.source.updateMany({ where: { id: sourceId, failingSince: null }, data: { failingSince: finishedAt } }),
    ]);
    return {
      checkId: check.id,
      status: "failed",
      failure: { code: failure.code, message: failure.message, details: failure.details ?? {} },
      added: 0,
      removed: 0,
      changed: 0,
      ...last,
    };
  }
}
