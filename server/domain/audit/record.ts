import { type Actor, actorId, actorLabel } from "../../actor";
import type { Prisma, Tx } from "../../db/types";

export interface AuditEntry {
  /** `<object>.<verb>`, e.g. `source.create`, `api_key.revoke`. */
  action: string;
  targetType: string;
  targetId?: string | null;
  targetLabel?: string | null;
  /** What changed; never secrets (no header values, tokens or passwords). */
  details?: Prisma.InputJsonValue;
}

/** Writes one audit row. Call it inside the transaction that makes the change. */
export async function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorType: actor.kind,
      actorId: actorId(actor),
      actorLabel: actorLabel(actor),
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      targetLabel: entry.targetLabel ?? null,
      details: entry.details,
    },
  });
}
