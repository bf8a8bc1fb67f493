/**
 * A held Source's Tool that waits for an operator's review (or was rejected) is refused by
 * name with what changed and since when: the model may have seen the approved definition,
 * and "no such Tool" would leave it guessing (docs/decisions/0073).
 */
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { REVIEW_STATES } from "../catalog/compatibility";
import { fieldList } from "../catalog/review-publish";

export async function awaitingReview(
  identityId: string,
  name: string,
): Promise<DomainError<"TOOL_AWAITING_REVIEW"> | null> {
  const db = await getDb();
  const tool = await db.tool.findFirst({
    where: {
      modelFacingName: name,
      compatibility: { in: [...REVIEW_STATES] },
      source: { hostSilentSince: null, assignments: { some: { identityId } } },
    },
    select: {
      compatibility: true,
      reviewSince: true,
      reviewChanged: true,
      approvedDigest: true,
      source: { select: { name: true } },
    },
  });
  if (!tool) return null;
  const since = (tool.reviewSince ?? new Date()).toISOString();
  const rejected = tool.compatibility === "review_rejected";
  const what = rejected
    ? "an operator rejected its current definition"
    : tool.approvedDigest || tool.reviewChanged.length
      ? `its definition changed (${fieldList(tool.reviewChanged) || "definition"}) and waits for an operator's review`
      : "it is new and waits for an operator's review";
  return new DomainError(
    "TOOL_AWAITING_REVIEW",
    `"${name}" is not offered: ${what} — Source "${tool.source.name}", since ${since}. Use another Tool meanwhile (find_tools searches those offered); it is offered again once an operator approves it.`,
    {
      state: tool.compatibility,
      since,
      changed: tool.reviewChanged,
      source: tool.source.name,
    },
  );
}
