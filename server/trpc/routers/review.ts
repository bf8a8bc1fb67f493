import {
  approveSourceReviews,
  decideReviews,
  getToolReview,
  listReviewQueue,
  reviewSourceAgain,
  setReviewPolicy,
} from "../../domain/catalog/review";
import {
  ZReviewDecisionInput,
  ZReviewQueueInput,
  ZReviewSourceInput,
  ZReviewToolInput,
  ZSetReviewPolicyInput,
} from "../../domain/catalog/review-schemas";
import { procedure, router } from "../init";

/** Tools → Review: Tool definitions waiting for an operator (docs/decisions/0073). */
export const reviewRouter = router({
  queue: procedure("viewer")
    .input(ZReviewQueueInput)
    .query(({ ctx, input }) => listReviewQueue(ctx.actor, input)),
  get: procedure("viewer")
    .input(ZReviewToolInput)
    .query(({ ctx, input }) => getToolReview(ctx.actor, input)),
  decide: procedure("operator")
    .input(ZReviewDecisionInput)
    .mutation(({ ctx, input }) => decideReviews(ctx.actor, input)),
  approveSource: procedure("operator")
    .input(ZReviewSourceInput)
    .mutation(({ ctx, input }) => approveSourceReviews(ctx.actor, input)),
  reviewAgain: procedure("operator")
    .input(ZReviewSourceInput)
    .mutation(({ ctx, input }) => reviewSourceAgain(ctx.actor, input)),
  setPolicy: procedure("operator")
    .input(ZSetReviewPolicyInput)
    .mutation(({ ctx, input }) => setReviewPolicy(ctx.actor, input)),
});
