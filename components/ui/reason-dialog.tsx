"use client";

import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Callout } from "./callout";
import { Dialog, DialogActions } from "./dialog";
import { Field, Textarea } from "./field";

/** The fewest characters a reason may have: "no" is not a reason. */
const MIN_REASON = 3;

/**
 * A decision that must say why (rejecting a proposal, erasing a memory): a required reason,
 * kept with the decision, and the action enabled once there is one. `errorTitle` shows a
 * refusal as an alert under the field; without it the refusal is the field's own error.
 */
export function ReasonDialog({
  open,
  title,
  description,
  hint,
  before,
  error,
  errorTitle,
  pending,
  action,
  pendingAction,
  variant,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  hint: string;
  before?: ReactNode;
  error: string | null;
  errorTitle?: string;
  pending: boolean;
  action: string;
  pendingAction: string;
  variant?: "danger";
  onClose: () => void;
  onSubmit: (reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  // However it closes (cancelled, or done and closed by its owner), it opens again empty.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setReason("");
  }
  const tooShort = reason.trim().length < MIN_REASON;
  const neededId = useId();
  const close = () => {
    setReason("");
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!tooShort) onSubmit(reason.trim());
  }
  return (
    <Dialog open={open} onClose={close} title={title} description={description}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {before}
        <Field label="Reason" hint={hint} error={errorTitle ? null : error}>
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
        {errorTitle && error && (
          <Callout tone="danger" role="alert" title={errorTitle}>
            {error}
          </Callout>
        )}
        {tooShort && (
          // The action is greyed out until then: say why, beside it.
          <p id={neededId} className="text-right text-xs text-muted" aria-live="polite">
            Write a reason of at least {MIN_REASON} characters to {action.toLowerCase()}.
          </p>
        )}
        <DialogActions
          onCancel={close}
          variant={variant}
          disabled={tooShort || pending}
          describedBy={tooShort ? neededId : undefined}
        >
          {pending ? pendingAction : action}
        </DialogActions>
      </form>
    </Dialog>
  );
}
