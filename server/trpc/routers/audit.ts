import { listAuditEvents } from "../../domain/audit/list";
import { ZListAuditEventsInput } from "../../domain/audit/schemas";
import { procedure, router } from "../init";

export const auditRouter = router({
  list: procedure("viewer")
    .input(ZListAuditEventsInput)
    .query(({ ctx, input }) => listAuditEvents(ctx.actor, input)),
});
