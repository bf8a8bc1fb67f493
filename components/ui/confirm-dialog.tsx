"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Callout } from "./callout";
import { Dialog } from "./dialog";

/**
 * A confirmation that says what will happen before it happens, and keeps the server's
 * refusal in view instead of closing on failure.
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending = false,
  error,
  errorTitle = "Not done",
  destructive = true,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  error?: { message: string } | null;
  /** Heads the server's refusal, e.g. "Not unassigned". */
  errorTitle?: string;
  destructive?: boolean;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div className="space-y-4">
        <div className="space-y-2 text-sm">{children}</div>
        {error && (
          <Callout tone="danger" role="alert" title={errorTitle}>
            {error.message}
          </Callout>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant={destructive ? "danger" : "primary"} onClick={onConfirm} disabled={pending}>
            {pending ? (pendingLabel ?? `${confirmLabel}…`) : confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
