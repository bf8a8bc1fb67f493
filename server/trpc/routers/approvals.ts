import { decideApproval, listApprovals } from "../../domain/call-policies/approval";
import { ZDecideApprovalInput } from "../../domain/call-policies/schemas";
import { procedure, router } from "../init";

export const approvalsRouter = router({
  /** Calls parked under the approve policy (pending first), and the latest decisions. */
  list: procedure("approver").query(({ ctx }) => listApprovals(ctx.actor)),
  /** Approves or denies one parked call (a denial needs a reason); audited. */
  decide: procedure("approver")
    .input(ZDecideApprovalInput)
    .mutation(({ ctx, input }) => decideApproval(ctx.actor, input)),
});
