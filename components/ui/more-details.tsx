import type { ReactNode } from "react";

/**
 * On a narrow screen a table keeps its name and state columns; the other columns' cells
 * are hidden (`max-md:hidden`) and their values fold into this disclosure in the name
 * cell, so the row expands in place instead of the table scrolling sideways.
 */
export function MoreDetails({
  items,
  label = "More",
}: {
  items: { label: string; value: ReactNode }[];
  label?: string;
}) {
  return (
    <details className="mt-1 text-xs md:hidden" data-testid="row-more">
      <summary className="cursor-pointer text-muted hover:text-fg">{label}</summary>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {items.map((i) => (
          <div key={i.label} className="contents">
            <dt className="text-muted">{i.label}</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]">{i.value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The class for a cell (or header) that folds into MoreDetails on a narrow screen. */
export const WIDE_ONLY = "max-md:hidden";
