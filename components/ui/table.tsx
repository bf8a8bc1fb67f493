import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

/**
 * A table in a horizontally scrolling frame. The frame takes keyboard focus: a wide table
 * on a narrow screen (or one with long values, like audit details) must be scrollable
 * without a mouse even when it has no links inside.
 */
export function Table({
  className,
  "aria-label": label,
  ...props
}: HTMLAttributes<HTMLTableElement> & { "aria-label": string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
      tabIndex={0}
      // relative: a visually hidden (absolute) label in a far column must be clipped by this
      // frame too, or it widens the whole page on a narrow screen.
      className="relative overflow-x-auto rounded-lg border border-border bg-surface"
    >
      <table aria-label={label} className={cn("w-full border-collapse text-left text-sm", className)} {...props} />
    </section>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        "border-b border-border bg-surface-2 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted",
        className,
      )}
      {...props}
    />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("border-b border-border px-3 py-2 align-middle", className)} {...props} />;
}
