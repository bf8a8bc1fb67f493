import {
  approveSourceReviews,
  decideReviews,
  getToolReview,
  listReviewQueue,
  reviewSourceAgain,
  setReviewPolicy,
} from "../../domain/catalog/review";
import { router } from "../init";
import { mutationOf, queryOf } from "../operations";

/** Tools → Review: Tool definitions waiting for an operator (docs/decisions/0073). */
export const reviewRouter = router({
  queue: queryOf(listReviewQueue),
  get: queryOf(getToolReview),
  decide: mutationOf(decideReviews),
  approveSource: mutationOf(approveSourceReviews),
  reviewAgain: mutationOf(reviewSourceAgain),
  setPolicy: mutationOf(setReviewPolicy),
});
