import { getDb } from "../../db";
import type { Prisma } from "../../db/types";
import { operation } from "../operation";
import { pageArgs, pageOf } from "../paging";
import { ZListAuditEventsInput } from "./schemas";

export const listAuditEvents = operation({ role: "viewer", input: ZListAuditEventsInput }, async (_actor, input) => {
  const db = await getDb();
  const where: Prisma.AuditEventWhereInput = {
    actorType: input.actorType,
    action: input.action ? { startsWith: input.action } : undefined,
    targetType: input.targetType,
    targetId: input.targetId,
    at: input.from || input.to ? { gte: input.from, lte: input.to } : undefined,
    OR: input.search
      ? [
          { actorLabel: { contains: input.search, mode: "insensitive" } },
          { action: { contains: input.search, mode: "insensitive" } },
          { targetLabel: { contains: input.search, mode: "insensitive" } },
        ]
      : undefined,
  };
  const [rows, total] = await Promise.all([
    db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], ...pageArgs(input) }),
    db.auditEvent.count({ where }),
  ]);
  return { ...pageOf(rows, input), total };
});
