"use client";

import { X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "./button";
import { cn } from "./cn";

/** Where typing belongs when a dialog opens: its first field. */
const FIRST_FIELD = "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled])";

/**
 * A modal on the native <dialog> element: focus trapping, Escape and the inert
 * background come from the browser, not from script. Focus goes to the first field when it
 * opens and back to where it was when it closes, however it closes (unmounted too).
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  wide,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** For a dialog holding a table. */
  wide?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // React's autoFocus ran while the dialog was still hidden, so showModal() focused the
    // first focusable element, the Close button, where a typed space closes the dialog and
    // the next letters reach the page's shortcuts.
    dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // A dialog unmounted while open is never closed by the browser, which would have
      // restored focus: do it here, unless that element is gone with the dialog.
      if (returnTo?.isConnected && !dialog.contains(returnTo)) returnTo.focus();
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="dialog-title"
      className={cn(
        "m-auto rounded-lg border border-border bg-surface p-0 text-fg shadow-xl backdrop:bg-black/50",
        wide ? "w-[min(48rem,calc(100vw-2rem))]" : "w-[min(32rem,calc(100vw-2rem))]",
      )}
    >
      {open && (
        <div className="p-5">
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <h2 id="dialog-title" className="text-base font-semibold">
                {title}
              </h2>
              {description && <p className="mt-1 text-sm text-muted">{description}</p>}
            </div>
            <button
              type="button"
              onClick={onClose}
              className="rounded p-1 text-muted hover:bg-surface-2 hover:text-fg"
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** A dialog form's footer: Cancel, then the submit button (its label is the children). */
export function DialogActions({
  onCancel,
  disabled,
  variant = "primary",
  describedBy,
  children,
}: {
  onCancel: () => void;
  disabled?: boolean;
  variant?: "primary" | "danger";
  /** The id of the text that says why the submit button is disabled, while it is. */
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" variant={variant} disabled={disabled} aria-describedby={describedBy}>
        {children}
      </Button>
    </div>
  );
}
