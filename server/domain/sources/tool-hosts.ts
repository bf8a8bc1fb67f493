/**
 * The SDK Tool Host side: a host registers its whole Tool list (all or nothing) and
 * sends heartbeats; a host silent past its timeout has its Tools withdrawn until it
 * speaks again.
 */

import { checkHostInfo, checkRegistration, type HostInfo } from "@/sdk/src/contract/tool-checks";
import type { Actor } from "../../actor";
import { SYSTEM } from "../../actor";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError, isCheckFailure } from "../../errors";
import { announce } from "../../events";
import { hashToken } from "../../tokens";
import { signalWakeup } from "../agent-tools/wakeup-listener";
import { recordAudit } from "../audit/record";
import { HOST_CLOSED, recordSourceWideChange } from "../catalog/changes";
import { publishCatalog } from "../catalog/publish";
import { type PublishedTool, published } from "../catalog/validate-tool";

export interface ToolHost {
  id: string;
  name: string;
  heartbeatTimeoutSeconds: number;
  hostSilentSince: Date | null;
  /** Paused by an operator: registrations are refused and the catalog stays as it is. */
  pausedAt: Date | null;
  /** The process of the host this request came from, when it says (replicas share one token). */
  processId?: string | null;
}

/** A host process's own id, as the SDK sends it (QM-Host-Process); anything else is no id. */
export function hostProcessId(value: string | null): string | null {
  return value && /^[A-Za-z0-9._:-]{1,64}$/.test(value) ? value : null;
}

export async function authenticateToolHost(token: string, processId: string | null = null): Promise<ToolHost | null> {
  const db = await getDb();
  const row = await db.source.findUnique({
    where: { hostTokenHash: hashToken(token) },
    select: { id: true, name: true, kind: true, heartbeatTimeoutSeconds: true, hostSilentSince: true, pausedAt: true },
  });
  if (row?.kind !== "sdk_tool_host") return null;
  return {
    id: row.id,
    name: row.name,
    heartbeatTimeoutSeconds: row.heartbeatTimeoutSeconds ?? 120,
    hostSilentSince: row.hostSilentSince,
    pausedAt: row.pausedAt,
    processId,
  };
}

/** The host's process spoke: it counts as alive (for a replica's goodbye) until the heartbeat timeout. */
async function processSeen(tx: Tx, host: ToolHost, at: Date): Promise<void> {
  if (!host.processId) return;
  await tx.$executeRaw`INSERT INTO tool_host_process ("sourceId", "processId", "lastSeenAt")
    VALUES (${host.id}, ${host.processId}, ${at})
    ON CONFLICT ("sourceId", "processId") DO UPDATE SET "lastSeenAt" = EXCLUDED."lastSeenAt"`;
}

export function hostActor(host: ToolHost): Actor {
  return { kind: "tool_host", sourceId: host.id, label: `SDK Tool Host "${host.name}"` };
}

/**
 * Validates a registration body against the SDK contract limits; throws CheckFailure. The
 * checks are the SDK's own (sdk/src/contract/tool-checks.ts): a host built with the SDK
 * learns of a refusal at start-up, with this code and message, before sending anything.
 */
export function validateRegistration(body: unknown): {
  tools: PublishedTool[];
  hostInfo: HostInfo | null;
  /** Each Tool's declared call deadline, by native name; the rest have the default. */
  timeouts: Map<string, number>;
} {
  const checked = checkRegistration(body);
  if (!checked.ok) throw new DomainError(checked.failure.code, checked.failure.message, checked.failure.details);
  const info = checkHostInfo(body);
  if (!info.ok) throw new DomainError(info.failure.code, info.failure.message, info.failure.details);
  const timeouts = new Map<string, number>();
  const tools = checked.value.map(({ timeoutSeconds, ...tool }) => {
    if (timeoutSeconds !== undefined) timeouts.set(tool.name, timeoutSeconds);
    return published({ ok: true, value: tool });
  });
  return { tools, hostInfo: info.value, timeouts };
}

/** Writes the Tools' declared deadlines: beside the definitions, so a new deadline needs no review. */
async function storeTimeouts(tx: Tx, sourceId: string, timeouts: Map<string, number>): Promise<void> {
  const names = [...timeouts.keys()];
  const seconds = [...timeouts.values()];
  await tx.$executeRaw`UPDATE tool SET "callTimeoutSeconds" = NULL
    WHERE "sourceId" = ${sourceId} AND "callTimeoutSeconds" IS NOT NULL AND NOT ("nativeName" = ANY(${names}::text[]))`;
  if (names.length)
    await tx.$executeRaw`UPDATE tool SET "callTimeoutSeconds" = t.seconds
      FROM unnest(${names}::text[], ${seconds}::int[]) AS t(name, seconds)
      WHERE tool."sourceId" = ${sourceId} AND tool."nativeName" = t.name
        AND tool."callTimeoutSeconds" IS DISTINCT FROM t.seconds`;
}

/** Brings a silent host's Tools back, recording the gain once per Tool. */
async function restoreIfSilent(tx: Tx, host: ToolHost, at: Date): Promise<void> {
  const cleared = await tx.source.updateMany({
    where: { id: host.id, hostSilentSince: { not: null } },
    data: { hostSilentSince: null },
  });
  if (cleared.count === 0) return;
  announce("host-silence");
  await recordSourceWideChange(tx, host, "restored", at);
  await recordAudit(tx, hostActor(host), {
    action: "source.host_back",
    targetType: "source",
    targetId: host.id,
    targetLabel: host.name,
  });
}

export async function registerTools(host: ToolHost, body: unknown) {
  if (host.pausedAt) {
    throw new DomainError(
      "SOURCE_PAUSED",
      "An operator paused this SDK Tool Host: its catalog stays as it is and registrations are refused until it is resumed. Heartbeats still count.",
      { pausedAt: host.pausedAt.toISOString() },
    );
  }
  const db = await getDb();
  const at = new Date();
  let tools: PublishedTool[];
  let hostInfo: HostInfo | null;
  let timeouts: Map<string, number>;
  try {
    ({ tools, hostInfo, timeouts } = validateRegistration(body));
  } catch (error) {
    if (isCheckFailure(error)) {
      // A refused registration changes nothing in the catalog, but the operator sees why.
      await db.$transaction([
        db.catalogCheck.create({
          data: {
            sourceId: host.id,
            trigger: "registration",
            status: "failed",
            startedAt: at,
            finishedAt: at,
            failureCode: error.code,
            failureMessage: error.message,
            failureDetails: (error.details ?? {}) as never,
          },
        }),
        db.source.update({
          where: { id: host.id },
          data: {
            lastCheckAt: at,
            lastFailureCode: error.code,
            lastFailureMessage: error.message,
            lastFailureDetails: (error.details ?? {}) as never,
          },
        }),
        db.source.updateMany({ where: { id: host.id, failingSince: null }, data: { failingSince: at } }),
      ]);
    }
    throw error;
  }
  const bytes = tools.reduce((sum, t) => sum + t.definitionBytes, 0);
  const check = await db.catalogCheck.create({
    data: { sourceId: host.id, trigger: "registration", startedAt: at },
    select: { id: true },
  });
  const result = await publishCatalog(host.id, tools, { checkId: check.id, at }, async (tx, result) => {
    await restoreIfSilent(tx, host, at);
    await processSeen(tx, host, at);
    await storeTimeouts(tx, host.id, timeouts);
    await tx.catalogCheck.update({
      where: { id: check.id },
      data: {
        status: "succeeded",
        finishedAt: new Date(),
        pages: 1,
        tools: tools.length,
        bytes,
        added: result.added,
        removed: result.removed,
        changed: result.changed,
      },
    });
    const software = hostInfo ? `${hostInfo.name} ${hostInfo.version}` : null;
    await tx.$executeRaw`UPDATE source SET "lastHeartbeatAt" = ${at}, "lastCheckAt" = ${at}, "lastSuccessAt" = ${at}, "failingSince" = NULL,
      "lastFailureCode" = NULL, "lastFailureMessage" = NULL, "lastFailureDetails" = NULL, "hostSoftware" = ${software} WHERE id = ${host.id}`;
    await recordAudit(tx, hostActor(host), {
      action: "source.register",
      targetType: "source",
      targetId: host.id,
      targetLabel: host.name,
      details: {
        tools: tools.length,
        added: result.added,
        removed: result.removed,
        changed: result.changed,
        ...(software ? { hostSoftware: software } : {}),
      },
    });
  });
  // The host learns which of its Tools no model is offered, and why, from the catalog as stored.
  const incompatible = await db.tool.findMany({
    where: { sourceId: host.id, compatibility: { not: "compatible" } },
    select: { nativeName: true, compatibility: true, compatibilityReason: true },
    orderBy: { nativeName: "asc" },
  });
  return {
    ...result,
    incompatible: incompatible.map((t) => ({
      tool: t.nativeName,
      state: t.compatibility,
      reason: t.compatibilityReason,
    })),
  };
}

export async function heartbeat(host: ToolHost): Promise<{ silentAfter: Date }> {
  const db = await getDb();
  const at = new Date();
  await db.$transaction(async (tx) => {
    await tx.source.update({ where: { id: host.id }, data: { lastHeartbeatAt: at } });
    await restoreIfSilent(tx, host, at);
    await processSeen(tx, host, at);
  });
  return { silentAfter: new Date(at.getTime() + host.heartbeatTimeoutSeconds * 1000) };
}

export interface Goodbye {
  /** The host's Tools were withdrawn (or already were): no other process of it is serving. */
  withdrawn: boolean;
  /** Other processes of the host that spoke within its heartbeat timeout and keep serving. */
  otherProcesses: number;
}

/**
 * A host process shutting down on purpose. Unless another process of the same host spoke
 * within the heartbeat timeout, its Tools are withdrawn now rather than at the timeout, and
 * the calls queued for it fail at once (their waiters see the host offline: host-calls.ts).
 */
export async function sayGoodbye(host: ToolHost): Promise<Goodbye> {
  const db = await getDb();
  const at = new Date();
  const since = new Date(at.getTime() - host.heartbeatTimeoutSeconds * 1000);
  const answer = await db.$transaction(async (tx) => {
    if (host.processId)
      await tx.toolHostProcess.deleteMany({ where: { sourceId: host.id, processId: host.processId } });
    const otherProcesses = await tx.toolHostProcess.count({ where: { sourceId: host.id, lastSeenAt: { gt: since } } });
    if (otherProcesses) return { withdrawn: false, otherProcesses, changed: false };
    const closed = await tx.source.updateMany({
      where: { id: host.id, kind: "sdk_tool_host", hostSilentSince: null },
      data: { hostSilentSince: at },
    });
    if (closed.count) {
      const withdrawn = await recordSourceWideChange(tx, host, "withdrawn", at, HOST_CLOSED);
      await recordAudit(tx, hostActor(host), {
        action: "source.host_closed",
        targetType: "source",
        targetId: host.id,
        targetLabel: host.name,
        details: { withdrawnTools: withdrawn },
      });
    }
    return { withdrawn: true, otherProcesses: 0, changed: closed.count > 0 };
  });
  if (answer.changed) {
    announce("host-silence");
    // Calls queued for the host fail now, on every instance, rather than at their next read.
    await signalWakeup(`host:${host.id}`);
  }
  return { withdrawn: answer.withdrawn, otherProcesses: answer.otherProcesses };
}

/**
 * Withdraws the Tools of every host silent past its timeout. Run by the scheduler;
 * idempotent, and safe on several instances (the update claims each host once).
 */
export async function sweepSilentHosts(now = new Date()): Promise<string[]> {
  const db = await getDb();
  const silent = await db.$transaction(
    async (tx) => {
      const silent = await tx.$queryRaw<{ id: string; name: string }[]>`
        UPDATE source SET "hostSilentSince" = ${now}
        WHERE kind = 'sdk_tool_host' AND "hostSilentSince" IS NULL AND "lastHeartbeatAt" IS NOT NULL
          AND "lastHeartbeatAt" + make_interval(secs => "heartbeatTimeoutSeconds") < ${now}
        RETURNING id, name`;
      for (const host of silent) {
        const withdrawn = await recordSourceWideChange(tx, host, "withdrawn", now);
        await recordAudit(tx, SYSTEM, {
          action: "source.host_silent",
          targetType: "source",
          targetId: host.id,
          targetLabel: host.name,
          details: { withdrawnTools: withdrawn },
        });
      }
      // Processes silent past their host's timeout no longer keep it offered after a goodbye.
      await tx.$executeRaw`DELETE FROM tool_host_process p USING source s
        WHERE p."sourceId" = s.id AND p."lastSeenAt" + make_interval(secs => COALESCE(s."heartbeatTimeoutSeconds", 120)) < ${now}`;
      if (silent.length) announce("host-silence");
      return silent.map((h) => h.id);
    },
    { timeout: 60_000 },
  );
  for (const id of silent) await signalWakeup(`host:${id}`);
  return silent;
}
