"use client";

import { useId } from "react";
import { cn } from "./cn";

/**
 * One choice out of a few, shown side by side. Native radio buttons underneath, so
 * arrow keys, the Tab stop and the group's name come from the browser.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}) {
  const name = useId();
  return (
    <fieldset className={cn("inline-flex rounded-md border border-border bg-surface p-0.5", className)}>
      <legend className="sr-only">{label}</legend>
      {options.map((o) => (
        <label key={o.value} className="relative">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={o.value === value}
            onChange={() => onChange(o.value)}
            className="peer sr-only"
          />
          <span
            className={cn(
              "block cursor-pointer rounded px-3 py-1 text-sm font-medium peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-focus",
              o.value === value ? "bg-accent-soft text-accent" : "text-muted hover:text-fg",
            )}
          >
            {o.label}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
