/**
 * The task id Quartermaster gives an agent for a task it started on a Source (or for a call
 * parked for approval): the Source, the Source's own task id and the Tool, sealed with
 * AES-256-GCM under a key derived from the installation secret and bound to the Agent
 * Identity (the additional authenticated data). Nothing is stored: any instance sharing
 * QM_SECRET opens it and routes tasks/get, tasks/result and tasks/cancel to the Source that
 * owns the task; another identity's token, a forged or altered id, or one past its lifetime
 * opens to nothing (docs/decisions/0088).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { purposeKey } from "../../crypto";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { installationSecret } from "../../secrets";

/** What a handle names: a task running on a Source, or a call waiting for an approver. */
export type TaskTarget =
  | { kind: "source"; sourceId: string; taskId: string; toolName: string }
  | { kind: "approval"; approvalId: string; toolName: string };

interface Sealed {
  k: "s" | "a";
  /** Source id, or the approval's id. */
  s: string;
  /** The Source's task id (Source tasks only). */
  t?: string;
  n: string;
  /** Issued at, in seconds. */
  i: number;
}

const PREFIX = "qmt1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Far above any real handle (a Source's task id is a UUID or so); refused unread past it. */
const MAX_HANDLE_CHARS = 4096;

let cached: { secret: string; key: Buffer } | undefined;
function key(): Buffer {
  const secret = installationSecret();
  if (cached?.secret !== secret) cached = { secret, key: Buffer.from(purposeKey("mcp-task-handle/v1")) };
  return cached.key;
}

const boundTo = (identityId: string) => Buffer.from(`quartermaster:task-handle:${identityId}`, "utf8");

export function mintTaskHandle(identityId: string, target: TaskTarget, now = Date.now()): string {
  const sealed: Sealed =
    target.kind === "source"
      ? { k: "s", s: target.sourceId, t: target.taskId, n: target.toolName, i: Math.floor(now / 1000) }
      : { k: "a", s: target.approvalId, n: target.toolName, i: Math.floor(now / 1000) };
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key(), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(boundTo(identityId));
  const body = Buffer.concat([cipher.update(JSON.stringify(sealed), "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

const invalid = (why: string) =>
  new DomainError(
    "TASK_HANDLE_INVALID",
    `taskId: ${why} Use the taskId Quartermaster answered the task-augmented tools/call with, under the same Agent Identity's token.`,
    { field: "taskId" },
  );

/** The target a handle names, for this identity only; TASK_HANDLE_INVALID otherwise. */
export function openTaskHandle(identityId: string, handle: unknown, now = Date.now()): TaskTarget {
  if (typeof handle !== "string" || !handle.startsWith(PREFIX) || handle.length > MAX_HANDLE_CHARS)
    throw invalid("not a task id Quartermaster issued.");
  const raw = Buffer.from(handle.slice(PREFIX.length), "base64url");
  let sealed: Sealed;
  try {
    if (raw.length <= IV_BYTES + TAG_BYTES) throw new Error("truncated");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(boundTo(identityId));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const body = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    sealed = JSON.parse(body.toString("utf8")) as Sealed;
  } catch {
    // One answer for all three: telling them apart would tell a prober which it hit.
    throw invalid(
      "it was not issued to this Agent Identity, was altered, or was sealed under another installation secret.",
    );
  }
  const ttl = LIMITS.TASK_HANDLE_TTL_SECONDS.value;
  if (now / 1000 - sealed.i > ttl)
    throw invalid(`it expired: a task id is good for ${ttl} s after the call that started the task.`);
  if (sealed.k === "a") return { kind: "approval", approvalId: sealed.s, toolName: sealed.n };
  return { kind: "source", sourceId: sealed.s, taskId: sealed.t ?? "", toolName: sealed.n };
}

/**
 * A short, stable name for a handle in the call log and traces: an operator can tell the
 * polls of one task apart from another's without the handle itself being kept.
 */
export function taskHandleFingerprint(handle: unknown): string {
  if (typeof handle !== "string") return "(none)";
  return createHash("sha256").update(handle).digest("hex").slice(0, 16);
}
