"use client";

import { formatCount } from "@/components/ui/format";
import { ReasonDialog } from "@/components/ui/reason-dialog";

/**
 * Why a proposal is wrong: the reason is kept with the decision, and the same memories
 * are never proposed together again.
 */
export function RejectDialog({
  count,
  open,
  pending,
  error,
  onClose,
  onReject,
}: {
  count: number;
  open: boolean;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  return (
    <ReasonDialog
      open={open}
      onClose={onClose}
      title={count === 1 ? "Reject this proposal" : `Reject ${formatCount(count)} proposals`}
      description="The consolidator will not propose the same memories together again."
      hint="Kept with the decision, e.g. “these describe two different webhooks”."
      error={error}
      errorTitle="Not rejected"
      pending={pending}
      action="Reject"
      pendingAction="Rejecting…"
      onSubmit={onReject}
    />
  );
}
