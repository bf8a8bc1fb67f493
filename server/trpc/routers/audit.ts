import { listAuditEvents } from "../../domain/audit/list";
import { router } from "../init";
import { queryOf } from "../operations";

export const auditRouter = router({
  list: queryOf(listAuditEvents),
});
