"use client";

import { X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "./button";
import { cn } from "./cn";

const FIRST_FIELD =
  "input:not([type=hidden]):not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled]):not([readonly])";

/**
 * A modal on the native <dialog> element: focus trapping, Escape and the inert
 * background come from the browser, not from script.
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
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The browser focuses the first focusable element, the header's Close: a form's first
      // field is where the user starts. A dialog without a field keeps the browser's choice.
      if (document.activeElement === closeRef.current) dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }
    if (!open && dialog.open) dialog.close();
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
              ref={closeRef}
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
  children,
}: {
  onCancel: () => void;
  disabled?: boolean;
  variant?: "primary" | "danger";
  children: ReactNode;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" variant={variant} disabled={disabled}>
        {children}
      </Button>
    </div>
  );
}
