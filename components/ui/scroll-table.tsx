import type { HTMLAttributes } from "react";
import { cn } from "./cn";

/**
 * A Table (same look as ./table) whose horizontal scroll container takes keyboard focus,
 * for tables with no links or buttons inside: otherwise a keyboard user could not
 * scroll a wide one on a narrow screen.
 */
export function ScrollTable({
  className,
  "aria-label": label,
  ...props
}: HTMLAttributes<HTMLTableElement> & { "aria-label": string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-border bg-surface"
    >
      <table aria-label={label} className={cn("w-full border-collapse text-left text-sm", className)} {...props} />
    </section>
  );
}
