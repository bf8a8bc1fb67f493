"use client";

import { cn } from "./cn";

/** An on/off control announced as a switch; the visible label is its accessible name. */
export function Switch({
  checked,
  onChange,
  label,
  disabled,
  describedBy,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  label: string;
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border transition-colors disabled:cursor-not-allowed disabled:opacity-50",
        checked ? "border-accent bg-accent" : "border-border bg-surface-2",
      )}
    >
      <span
        aria-hidden
        className={cn(
          "inline-block size-4 rounded-full shadow transition-transform",
          checked ? "translate-x-6 bg-accent-fg" : "translate-x-1 bg-muted",
        )}
      />
    </button>
  );
}
