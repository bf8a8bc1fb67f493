"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { Input, Select } from "./field";

/**
 * A list page's filters: a `<search>` landmark holding labelled controls in one wrapping row,
 * or, `stacked`, in rows of their own (each child a row).
 */
export function FilterBar({
  className,
  label,
  stacked = false,
  children,
}: {
  className?: string;
  /** The landmark's name, where a page has more than one search. */
  label?: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <search aria-label={label} className={cn(stacked ? "space-y-3" : "flex flex-wrap gap-2", className ?? "mb-4")}>
      {children}
    </search>
  );
}

/** A text filter with a label for screen readers (the placeholder says what it searches). */
export function FilterInput({
  id,
  label,
  placeholder,
  value,
  onValue,
  className = "max-w-xs",
  type = "search",
  maxLength,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onValue: (value: string) => void;
  className?: string;
  /** "text" for a filter that is a value rather than a search (no clear button in the box). */
  type?: "search" | "text";
  maxLength?: number;
}) {
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <Input
        id={id}
        type={type === "search" ? "search" : undefined}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        className={className}
        maxLength={maxLength}
      />
    </>
  );
}

/** A choice filter with a label for screen readers; `options` or `children` are its options. */
export function FilterSelect({
  id,
  label,
  value,
  onValue,
  className,
  options,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  className?: string;
  options?: readonly { value: string; label: string }[];
  children?: ReactNode;
}) {
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <Select id={id} value={value} onChange={(e) => onValue(e.target.value)} className={className}>
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {children}
      </Select>
    </>
  );
}

/** "Clear filters", shown only while some filter narrows the list. */
export function ClearFilters({ shown, onClear }: { shown: boolean; onClear: () => void }) {
  return shown ? (
    <Button variant="ghost" onClick={onClear}>
      Clear filters
    </Button>
  ) : null;
}
