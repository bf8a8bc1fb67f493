"use client";

import { type KeyboardEvent, type ReactNode, useId, useRef } from "react";
import { cn } from "./cn";

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * Tabs with the WAI-ARIA tabs pattern: one Tab stop for the whole list, arrow keys,
 * Home and End move between tabs, and selection follows focus. Only the selected
 * panel is rendered, so the caller passes just its content; a panel that holds no
 * focusable element still takes focus so keyboard users can reach its text.
 */
export function Tabs<T extends string>({
  label,
  items,
  value,
  onChange,
  children,
  className,
}: {
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  children: ReactNode;
  className?: string;
}) {
  const base = useId();
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const tabId = (v: T) => `${base}-tab-${v}`;
  const panelId = `${base}-panel`;

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    // From the focused tab, not `value`: the selection may lag a fast key repeat by a render.
    const focused = items.findIndex((i) => refs.current.get(i.value) === e.target);
    const index = focused === -1 ? items.findIndex((i) => i.value === value) : focused;
    const last = items.length - 1;
    const next =
      e.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : e.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const target = items[next];
    if (!target) return;
    onChange(target.value);
    refs.current.get(target.value)?.focus();
  }

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-border"
      >
        {items.map((item) => {
          const selected = item.value === value;
          return (
            <button
              key={item.value}
              ref={(el) => {
                if (el) refs.current.set(item.value, el);
                else refs.current.delete(item.value);
              }}
              type="button"
              role="tab"
              id={tabId(item.value)}
              aria-selected={selected}
              // Only the selected tab points at the panel: the others' panels are not rendered.
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.value)}
              className={cn(
                "-mb-px inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-offset-[-2px]",
                selected
                  ? "border-accent text-accent"
                  : "border-transparent text-muted hover:border-border hover:text-fg",
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(value)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the tabs pattern lets a panel take focus after its tab
        tabIndex={0}
        className="pt-5 focus-visible:outline-offset-4"
      >
        {children}
      </div>
    </div>
  );
}
