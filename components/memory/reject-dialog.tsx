"use client";

import { type FormEvent, useState } from "react";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";

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
  const [reason, setReason] = useState("");
  const tooShort = reason.trim().length < 3;
  const close = () => {
    setReason("");
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!tooShort) onReject(reason.trim());
  }
  return (
    <Dialog
      open={open}
      onClose={close}
      title={count === 1 ? "Reject this proposal" : `Reject ${formatCount(count)} proposals`}
      description="The consolidator will not propose the same memories together again."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Reason" hint="Kept with the decision, e.g. “these describe two different webhooks”.">
          {(p) => (
            <Textarea
              {...p}
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={1000}
              required
              autoFocus
            />
          )}
        </Field>
        {error && (
          <Callout tone="danger" role="alert" title="Not rejected">
            {error}
          </Callout>
        )}
        {tooShort && (
          // The Reject button is greyed out until then: say why, where it is.
          <p id="reject-reason-needed" className="text-right text-xs text-muted" aria-live="polite">
            Write a reason of at least 3 characters to reject.
          </p>
        )}
        <DialogActions
          onCancel={close}
          disabled={tooShort || pending}
          describedBy={tooShort ? "reject-reason-needed" : undefined}
        >
          {pending ? "Rejecting…" : "Reject"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
