/**
 * `approve`: a call is parked until a person with the approver role (or an admin) decides in
 * the console (Tools → Approvals). The agent gets APPROVAL_PENDING with the approval's id and
 * when to retry; its retry of the same call (same Tool definition, same arguments, by digest)
 * runs it once after an approval, or gets APPROVAL_DENIED with the approver's reason. The
 * arguments are stored sealed (they may hold secrets) and shown with secret-looking values
 * redacted. Every decision is audited; the calls are in the call log (docs/decisions/0076).
 */
import { randomUUID } from "node:crypto";
import { type Actor, actorLabel, requireRole } from "../../actor";
import { decryptJson, encryptJson } from "../../crypto";
import { getDb } from "../../db";
import { DomainError, notFound } from "../../errors";
import { LIMITS } from "../../limits";
import { readableTime } from "../agent-tools/readable-time";
import { recordAudit } from "../audit/record";
import { parseInput } from "../validation";
import { argumentsDigest } from "./confirmation";
import { redactArguments } from "./redact";
import { type TDecideApprovalInput, ZDecideApprovalInput } from "./schemas";

export interface CallUnderApproval {
  identityId: string;
  identityName: string;
  tokenId: string | null;
  toolName: string;
  sourceId: string;
  sourceName: string;
  definitionHash: string;
  arguments: Record<string, unknown>;
}

/** Whether this call may run now; otherwise the failure the agent gets instead. */
export async function judgeApproval(
  call: CallUnderApproval,
  now = new Date(),
): Promise<{ verdict: "run" } | { verdict: "refuse"; error: DomainError }> {
  const db = await getDb();
  const digest = argumentsDigest(call.arguments);
  const same = {
    identityId: call.identityId,
    toolName: call.toolName,
    definitionHash: call.definitionHash,
    argumentsDigest: digest,
    expiresAt: { gt: now },
  };
  const approved = await db.parkedCall.findFirst({ where: { ...same, status: "approved" }, select: { id: true } });
  if (approved) {
    // Only one retry may take it: the update succeeds for exactly one of any racing retries.
    const taken = await db.parkedCall.updateMany({
      where: { id: approved.id, status: "approved" },
      // Its result goes to this retry; a poll of the approval's task is told so, not left waiting.
      data: {
        status: "ran",
        ranAt: now,
        result: encryptJson({ kept: { notKept: "retry" } }, resultSealedTo(approved.id)),
      },
    });
    if (taken.count === 1) return { verdict: "run" };
  }
  const denied = await db.parkedCall.findFirst({
    where: { ...same, status: "denied" },
    orderBy: { decidedAt: "desc" },
    select: { id: true, reason: true, decidedByLabel: true },
  });
  if (denied)
    return {
      verdict: "refuse",
      error: new DomainError(
        "APPROVAL_DENIED",
        `${denied.decidedByLabel ?? "An approver"} denied this call of ${call.toolName}: ${denied.reason ?? "no reason given"}. Nothing was run; do not retry it with these arguments.`,
        { approvalId: denied.id, reason: denied.reason },
      ),
    };
  const pending =
    (await db.parkedCall.findFirst({ where: { ...same, status: "pending" }, select: { id: true, expiresAt: true } })) ??
    (await park(call, digest, now));
  const retryAfter = LIMITS.APPROVAL_RETRY_AFTER_SECONDS.value;
  return {
    verdict: "refuse",
    error: new DomainError(
      "APPROVAL_PENDING",
      `This call of ${call.toolName} waits for an approver's decision in the console (approval ${pending.id}). Nothing was run yet. Tell the user it needs approval, and retry the same call with the same arguments in ${retryAfter} s or later; it runs once approved. The approval expires ${readableTime(pending.expiresAt, now)}.`,
      {
        approvalId: pending.id,
        retryAfterMs: retryAfter * 1000,
        expiresAt: pending.expiresAt.toISOString(),
      },
    ),
  };
}

async function park(call: CallUnderApproval, digest: string, now: Date) {
  const db = await getDb();
  const id = randomUUID();
  return db.parkedCall.create({
    data: {
      id,
      identityId: call.identityId,
      identityName: call.identityName,
      tokenId: call.tokenId,
      toolName: call.toolName,
      sourceId: call.sourceId,
      sourceName: call.sourceName,
      definitionHash: call.definitionHash,
      argumentsDigest: digest,
      // Sealed to its own row: a copy pasted into another approval does not open there.
      arguments: encryptJson(call.arguments, sealedTo(id)),
      expiresAt: new Date(now.getTime() + LIMITS.APPROVAL_TTL_SECONDS.value * 1000),
    },
    select: { id: true, expiresAt: true },
  });
}

const sealedTo = (id: string) => `parked-call:${id}`;
const resultSealedTo = (id: string) => `parked-call-result:${id}`;

/** Pending approvals first (oldest first), then the latest decisions, for Tools → Approvals. */
export async function listApprovals(actor: Actor, now = new Date()) {
  requireRole(actor, "approver");
  const db = await getDb();
  const select = {
    id: true,
    identityId: true,
    identityName: true,
    toolName: true,
    sourceId: true,
    sourceName: true,
    arguments: true,
    status: true,
    createdAt: true,
    expiresAt: true,
    decidedAt: true,
    decidedByLabel: true,
    reason: true,
    ranAt: true,
  } as const;
  const [pending, decided] = await Promise.all([
    db.parkedCall.findMany({
      where: { status: "pending", expiresAt: { gt: now } },
      orderBy: { createdAt: "asc" },
      take: LIMITS.PAGE_SIZE_MAX.value,
      select,
    }),
    db.parkedCall.findMany({
      where: { status: { in: ["approved", "denied", "ran"] } },
      orderBy: { decidedAt: "desc" },
      take: 20,
      select,
    }),
  ]);
  const view = (row: (typeof pending)[number]) => {
    const { arguments: sealed, ...rest } = row;
    let shown: unknown = null;
    try {
      shown = sealed ? redactArguments(decryptJson(sealed, sealedTo(row.id))) : null;
    } catch {
      shown = "[unreadable: sealed with another installation secret]";
    }
    return { ...rest, arguments: shown };
  };
  return { pending: pending.map(view), decided: decided.map(view) };
}

export async function decideApproval(actor: Actor, raw: TDecideApprovalInput, now = new Date()) {
  requireRole(actor, "approver");
  const input = parseInput(ZDecideApprovalInput, raw);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const row = await tx.parkedCall.findUnique({
      where: { id: input.id },
      select: { status: true, expiresAt: true, toolName: true, identityName: true, sourceName: true },
    });
    if (!row) throw notFound("Approval");
    if (row.status !== "pending" || row.expiresAt <= now)
      throw new DomainError(
        "CONFLICT",
        row.status === "pending"
          ? "id: this approval expired; the agent must call again."
          : `id: this approval was decided already (${row.status}).`,
        { field: "id", status: row.status },
      );
    const status = input.decision === "approve" ? "approved" : "denied";
    const decided = await tx.parkedCall.updateMany({
      where: { id: input.id, status: "pending" },
      data: {
        status,
        decidedAt: now,
        decidedById: actor.kind === "user" ? actor.id : null,
        decidedByLabel: actorLabel(actor),
        reason: input.reason ?? null,
        // An approved call waits for the agent's retry as long again.
        ...(status === "approved"
          ? { expiresAt: new Date(now.getTime() + LIMITS.APPROVAL_TTL_SECONDS.value * 1000) }
          : {}),
      },
    });
    if (decided.count !== 1)
      throw new DomainError("CONFLICT", "id: this approval was decided already.", { field: "id" });
    await recordAudit(tx, actor, {
      action: status === "approved" ? "call.approve" : "call.deny",
      targetType: "parked_call",
      targetId: input.id,
      targetLabel: `${row.identityName} → ${row.sourceName} / ${row.toolName}`,
      details: { reason: input.reason ?? null },
    });
    return { id: input.id, status };
  });
}

/** A parked call as its task (an approval polled as a task) sees it; null when not this identity's. */
export async function parkedCallOf(identityId: string, id: string) {
  const db = await getDb();
  const row = await db.parkedCall.findFirst({
    where: { id, identityId },
    select: {
      id: true,
      status: true,
      expiresAt: true,
      reason: true,
      decidedByLabel: true,
      toolName: true,
      sourceId: true,
      sourceName: true,
      createdAt: true,
      decidedAt: true,
      definitionHash: true,
    },
  });
  return row;
}

/**
 * Takes an approved call for its task to run, exactly once (as a retry takes it), with its
 * arguments; null when it is not approved any more (another poll took it, or it expired).
 */
export async function takeApprovedCall(identityId: string, id: string, now = new Date()) {
  const db = await getDb();
  const taken = await db.parkedCall.updateMany({
    where: { id, identityId, status: "approved", expiresAt: { gt: now } },
    data: { status: "ran", ranAt: now },
  });
  if (taken.count !== 1) return null;
  const row = await db.parkedCall.findUniqueOrThrow({ where: { id }, select: { arguments: true } });
  return decryptJson<Record<string, unknown>>(row.arguments, sealedTo(id));
}

/** The agent cancelled the approval's task: it leaves the approvers' list (expires now) if still pending. */
export async function withdrawParkedCall(identityId: string, id: string, now = new Date()) {
  const db = await getDb();
  await db.parkedCall.updateMany({ where: { id, identityId, status: "pending" }, data: { expiresAt: now } });
}

/** What a kept result says when the result itself was not kept. */
type NotKept = { notKept: "too_large"; bytes: number } | { notKept: "failed" } | { notKept: "retry" };

/**
 * Keeps the result of an approved call its task ran, sealed to the row, so a later poll of
 * the task reads it instead of running the call again (decision 0094). A result over
 * APPROVAL_RESULT_BYTES is not kept: later polls are told so, with its size.
 */
export async function keepApprovedResult(identityId: string, id: string, result: unknown | NotKept) {
  const db = await getDb();
  const text = JSON.stringify(result ?? null);
  const bytes = Buffer.byteLength(text, "utf8");
  const kept: unknown =
    bytes > LIMITS.APPROVAL_RESULT_BYTES.value ? ({ notKept: "too_large", bytes } as NotKept) : result;
  await db.parkedCall.updateMany({
    where: { id, identityId, status: "ran" },
    data: { result: encryptJson({ kept }, resultSealedTo(id)) },
  });
}

/** The longest an approved call run for its task may still be running (a crashed run reads as ended after it). */
const RUN_WINDOW_MS = () => LIMITS.TOOL_CALL_TIMEOUT_MAX_SECONDS.value * 1000 + 10_000;

export type KeptResult =
  | { state: "running" }
  | { state: "kept"; result: unknown }
  | { state: "gone"; why: "too_large" | "expired" | "failed" | "retry"; bytes?: number };

/** The result an approved call's task run left for later polls, or why there is none (any more). */
export async function keptApprovedResult(identityId: string, id: string, now = new Date()): Promise<KeptResult> {
  const db = await getDb();
  const row = await db.parkedCall.findFirst({
    where: { id, identityId, status: "ran" },
    select: { result: true, ranAt: true },
  });
  const ranAt = row?.ranAt?.getTime() ?? 0;
  if (!row || now.getTime() - ranAt > LIMITS.APPROVAL_RESULT_KEEP_SECONDS.value * 1000)
    return { state: "gone", why: "expired" };
  if (row.result === null)
    return now.getTime() - ranAt < RUN_WINDOW_MS() ? { state: "running" } : { state: "gone", why: "failed" };
  let kept: unknown;
  try {
    ({ kept } = decryptJson<{ kept: unknown }>(row.result, resultSealedTo(id)));
  } catch {
    return { state: "gone", why: "expired" };
  }
  const marker = kept as Partial<NotKept> | null;
  if (marker && typeof marker === "object" && "notKept" in marker)
    return marker.notKept === "too_large"
      ? { state: "gone", why: "too_large", bytes: (marker as { bytes: number }).bytes }
      : { state: "gone", why: marker.notKept === "retry" ? "retry" : "failed" };
  return { state: "kept", result: kept };
}

/** Drops kept results past APPROVAL_RESULT_KEEP_SECONDS (the call log sweeper runs it). */
export async function sweepApprovedResults(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - LIMITS.APPROVAL_RESULT_KEEP_SECONDS.value * 1000);
  return (
    await db.parkedCall.updateMany({
      where: { status: "ran", result: { not: null }, ranAt: { lt: cutoff } },
      data: { result: null },
    })
  ).count;
}
