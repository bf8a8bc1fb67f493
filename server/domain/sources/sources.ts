import { randomUUID } from "node:crypto";
import { type Actor, actorId, actorLabel } from "../../actor";
import { getDb } from "../../db";
import { DomainError, notFound } from "../../errors";
import { announce } from "../../events";
import { LIMITS } from "../../limits";
import { hashToken, newToken, tokenPrefix } from "../../tokens";
import { recordAudit } from "../audit/record";
import { recordSourceWideChange } from "../catalog/changes";
import { closeSourceSessions } from "../catalog/source-sessions";
import { identityTotals, makeBudget, stateOf } from "../identities/budget";
import { operation } from "../operation";
import { sealHeaders } from "./headers";
import { loadUrlPolicy } from "./network-policy";
import {
  ZCreateMcpConnectionInput,
  ZCreateToolHostInput,
  ZListSourcesInput,
  ZSourceIdInput,
  ZUpdateSourceInput,
} from "./schemas";
import { checkConnectionUrl } from "./url-policy";
import { SOURCE_PUBLIC, type SourceRow, sourceView } from "./view";

/** Why a Source may not take this name (another has it, in any case), or null when it is free. */
export async function sourceNameTaken(name: string, exceptId?: string): Promise<string | null> {
  const db = await getDb();
  const taken = await db.source.findFirst({
    where: { name: { equals: name, mode: "insensitive" }, id: exceptId ? { not: exceptId } : undefined },
    select: { id: true },
  });
  return taken ? `name: a Source named "${name}" already exists; choose another name.` : null;
}

async function assertNameFree(name: string, exceptId?: string) {
  const taken = await sourceNameTaken(name, exceptId);
  if (taken) throw new DomainError("CONFLICT", taken, { field: "name" });
}

/** Who added a Source: its first catalog is approved as theirs (catalog/review-publish.ts). */
function createdBy(actor: Actor) {
  return { createdByType: actor.kind, createdById: actorId(actor), createdByLabel: actorLabel(actor) };
}

export const createMcpConnection = operation(
  { role: "operator", input: ZCreateMcpConnectionInput },
  async (actor, input) => {
    const url = checkConnectionUrl(input.url, await loadUrlPolicy());
    await assertNameFree(input.name);
    const headers = input.headers ?? {};
    // Chosen here: the headers are sealed for this id before the row exists.
    const id = randomUUID();
    const db = await getDb();
    return db.$transaction(async (tx) => {
      const row = await tx.source.create({
        data: {
          id,
          kind: "mcp_connection",
          name: input.name,
          description: input.description ?? "",
          url: url.toString(),
          encryptedHeaders: sealHeaders(id, headers),
          headerNames: Object.keys(headers),
          checkIntervalSeconds: input.checkIntervalSeconds,
          nextCheckAt: new Date(),
          reviewPolicy: input.reviewPolicy,
          ...createdBy(actor),
        },
        select: SOURCE_PUBLIC,
      });
      await recordAudit(tx, actor, {
        action: "source.create",
        targetType: "source",
        targetId: row.id,
        targetLabel: row.name,
        details: {
          kind: row.kind,
          url: row.url,
          headerNames: row.headerNames,
          checkIntervalSeconds: row.checkIntervalSeconds,
          reviewPolicy: input.reviewPolicy,
        },
      });
      return withIdentities(row, new Map());
    });
  },
);

/** Creates an SDK Tool Host; its token is returned this once and stored hashed. */
export const createToolHost = operation({ role: "operator", input: ZCreateToolHostInput }, async (actor, input) => {
  await assertNameFree(input.name);
  const token = newToken("qm_host");
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const row = await tx.source.create({
      data: {
        kind: "sdk_tool_host",
        name: input.name,
        description: input.description ?? "",
        hostTokenHash: hashToken(token),
        hostTokenPrefix: tokenPrefix(token),
        heartbeatTimeoutSeconds: input.heartbeatTimeoutSeconds,
        reviewPolicy: input.reviewPolicy,
        ...createdBy(actor),
      },
      select: SOURCE_PUBLIC,
    });
    await recordAudit(tx, actor, {
      action: "source.create",
      targetType: "source",
      targetId: row.id,
      targetLabel: row.name,
      details: {
        kind: row.kind,
        heartbeatTimeoutSeconds: row.heartbeatTimeoutSeconds,
        reviewPolicy: input.reviewPolicy,
      },
    });
    return { source: withIdentities(row, new Map()), hostToken: token };
  });
});

export const rotateHostToken = operation({ role: "operator", input: ZSourceIdInput }, async (actor, { id }) => {
  const token = newToken("qm_host");
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const existing = await tx.source.findUnique({ where: { id }, select: { kind: true, name: true } });
    if (!existing) throw notFound("Source");
    if (existing.kind !== "sdk_tool_host")
      throw new DomainError("INVALID_INPUT", "id: only SDK Tool Hosts have host tokens.", { field: "id" });
    const row = await tx.source.update({
      where: { id },
      data: { hostTokenHash: hashToken(token), hostTokenPrefix: tokenPrefix(token) },
      select: SOURCE_PUBLIC,
    });
    await recordAudit(tx, actor, {
      action: "source.rotate_token",
      targetType: "source",
      targetId: id,
      targetLabel: existing.name,
    });
    return { row, hostToken: token };
  });
  return { source: withIdentities(result.row, await identityStats([result.row])), hostToken: result.hostToken };
});

export const updateSource = operation({ role: "operator", input: ZUpdateSourceInput }, async (actor, input) => {
  const db = await getDb();
  const before = await db.source.findUnique({ where: { id: input.id }, select: SOURCE_PUBLIC });
  if (!before) throw notFound("Source");
  const isConnection = before.kind === "mcp_connection";
  for (const field of ["url", "headers", "checkIntervalSeconds"] as const) {
    if (input[field] !== undefined && !isConnection)
      throw new DomainError("INVALID_INPUT", `${field}: only MCP Connections have it.`, { field });
  }
  if (input.heartbeatTimeoutSeconds !== undefined && isConnection) {
    throw new DomainError("INVALID_INPUT", "heartbeatTimeoutSeconds: only SDK Tool Hosts have it.", {
      field: "heartbeatTimeoutSeconds",
    });
  }
  if (input.name && input.name.toLowerCase() !== before.name.toLowerCase()) await assertNameFree(input.name, input.id);
  const url = input.url !== undefined ? checkConnectionUrl(input.url, await loadUrlPolicy()).toString() : undefined;
  const headersAtNewOrigin = headerMove(before, url, input);

  const updated = await db.$transaction(async (tx) => {
    const row = await tx.source.update({
      where: { id: input.id },
      data: {
        name: input.name,
        description: input.description,
        url,
        ...(input.headers !== undefined
          ? {
              encryptedHeaders: sealHeaders(input.id, input.headers),
              headerNames: Object.keys(input.headers),
            }
          : {}),
        checkIntervalSeconds: input.checkIntervalSeconds,
        heartbeatTimeoutSeconds: input.heartbeatTimeoutSeconds,
        pausedAt: input.paused === undefined ? undefined : input.paused ? (before.pausedAt ?? new Date()) : null,
        // A new address or interval is worth checking right away.
        nextCheckAt:
          isConnection &&
          (url !== undefined ||
            input.headers !== undefined ||
            input.checkIntervalSeconds !== undefined ||
            input.paused === false)
            ? new Date()
            : undefined,
      },
      select: SOURCE_PUBLIC,
    });
    const changed: Record<string, unknown> = {};
    for (const key of ["name", "description", "url", "checkIntervalSeconds", "heartbeatTimeoutSeconds"] as const) {
      if (input[key] !== undefined && row[key] !== before[key]) changed[key] = { from: before[key], to: row[key] };
    }
    if (input.headers !== undefined) changed.headerNames = { from: before.headerNames, to: row.headerNames };
    if (headersAtNewOrigin) changed.headersAtNewOrigin = headersAtNewOrigin;
    if (input.paused !== undefined && input.paused !== Boolean(before.pausedAt)) changed.paused = input.paused;
    if (Object.keys(changed).length) {
      await recordAudit(tx, actor, {
        action: input.paused === true ? "source.pause" : input.paused === false ? "source.resume" : "source.update",
        targetType: "source",
        targetId: row.id,
        targetLabel: row.name,
        details: changed as never,
      });
    }
    return row;
  });
  // Pooled sessions were opened with the old address and headers, or for a Source now paused.
  // (Other instances' sessions stop matching by their key, or fall to the idle timeout.)
  if (input.url !== undefined || input.headers !== undefined || input.paused !== undefined)
    closeSourceSessions(input.id);
  announce("source");
  // Outside the transaction: on the embedded database a query beside an open transaction would wait for it.
  return withIdentities(updated, await identityStats([updated]));
});

/**
 * Saved headers hold credentials for one server: a URL moving to another origin (scheme,
 * host, port) does not take them along unless the operator re-enters them or says to keep
 * them. Returns what happened to them for the audit log, or null when the origin stays.
 */
function headerMove(
  before: { url: string | null; headerNames: string[] },
  url: string | undefined,
  input: { headers?: Record<string, string>; keepHeaders?: boolean },
): { from: string; to: string; headers: "re-entered" | "kept" } | null {
  if (url === undefined || !before.url || !before.headerNames.length) return null;
  const from = new URL(before.url).origin;
  const to = new URL(url).origin;
  if (from === to) return null;
  if (input.headers !== undefined) return { from, to, headers: "re-entered" };
  if (input.keepHeaders === true) return { from, to, headers: "kept" };
  throw new DomainError(
    "INVALID_INPUT",
    `headers: the new URL is on another origin (${to}, was ${from}), and the saved headers (${before.headerNames.join(", ")}) are not sent to a new origin unasked. Enter the headers for it, or keep the saved ones (keepHeaders: true).`,
    { field: "headers", from, to, headerNames: before.headerNames },
  );
}

/**
 * Deletes a Source and its Tools. Every identity that held them loses them; the loss is
 * recorded once per Tool (not per identity) so Lost recently can still show it.
 */
export const deleteSource = operation({ role: "operator", input: ZSourceIdInput }, async (actor, { id }) => {
  const db = await getDb();
  await db.$transaction(
    async (tx) => {
      const source = await tx.source.findUnique({
        where: { id },
        select: { id: true, name: true, kind: true, toolCount: true },
      });
      if (!source) throw notFound("Source");
      await recordSourceWideChange(tx, source, "source_deleted", new Date());
      await tx.source.delete({ where: { id } });
      await recordAudit(tx, actor, {
        action: "source.delete",
        targetType: "source",
        targetId: id,
        targetLabel: source.name,
        details: { kind: source.kind, toolCount: source.toolCount },
      });
    },
    { timeout: 60_000 },
  );
  closeSourceSessions(id);
  announce("source");
});

export const getSource = operation({ role: "viewer", input: ZSourceIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  const row = await db.source.findUnique({ where: { id }, select: SOURCE_PUBLIC });
  if (!row) throw notFound("Source");
  const stats = await identityStats([row]);
  return withIdentities(row, stats);
});

type IdentityStats = Map<string, { assigned: number; overBudget: { id: string; name: string; overByBytes: number }[] }>;

/** Per Source: how many identities hold it, and which of those are over budget. */
async function identityStats(rows: { id: string }[]): Promise<IdentityStats> {
  const db = await getDb();
  const stats: IdentityStats = new Map(rows.map((r) => [r.id, { assigned: 0, overBudget: [] }]));
  const assignments = await db.sourceAssignment.findMany({
    where: rows.length === 1 ? { sourceId: rows[0]?.id } : undefined,
    select: { sourceId: true, identityId: true },
  });
  if (!assignments.length) return stats;
  const over = new Map(
    (await identityTotals({ ids: [...new Set(assignments.map((a) => a.identityId))] }))
      .map((t) => ({ id: t.id, name: t.name, budget: makeBudget(t.toolsBytes, t.instructionsBytes) }))
      .filter((t) => stateOf(t.budget) === "over_budget")
      .map((t) => [t.id, { id: t.id, name: t.name, overByBytes: t.budget.overByBytes }]),
  );
  for (const a of assignments) {
    const entry = stats.get(a.sourceId);
    if (!entry) continue;
    entry.assigned++;
    const o = over.get(a.identityId);
    if (o) entry.overBudget.push(o);
  }
  return stats;
}

function withIdentities(row: SourceRow, stats: IdentityStats) {
  const s = stats.get(row.id) ?? { assigned: 0, overBudget: [] };
  return {
    ...sourceView(row),
    identities: {
      assigned: s.assigned,
      limit: row.kind === "mcp_connection" ? LIMITS.IDENTITIES_PER_CONNECTION.value : null,
      overBudget: s.overBudget,
    },
  };
}

export const listSources = operation({ role: "viewer", input: ZListSourcesInput }, async (_actor, input) => {
  const db = await getDb();
  const rows = await db.source.findMany({
    where: { kind: input.kind, name: input.search ? { contains: input.search, mode: "insensitive" } : undefined },
    select: SOURCE_PUBLIC,
    orderBy: { name: "asc" },
  });
  const stats = await identityStats(rows);
  return rows.map((r) => withIdentities(r, stats));
});
