"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type MouseEvent, memo, type ReactNode, useEffect, useMemo, useRef } from "react";
import { cn } from "../cn";
import { NARROW_SCREEN, useMediaQuery } from "../use-media-query";
import type { BlockList } from "./use-block-list";

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** A width class for the column (on <col>), e.g. "w-40" or "w-[16%]"; leave one column without. */
  width?: string;
  /** Classes for its cells; content must fit the fixed row height (truncate, line-clamp). */
  className?: string;
  headerClassName?: string;
  ariaSort?: "ascending" | "descending" | "none";
  /**
   * Hidden on a narrow screen, where a table keeps its name and state columns: the row's
   * page (a click away) or the name cell carries the rest.
   */
  wideOnly?: boolean;
}

/** The default height: the viewport below a page header and a filter bar, never less than 24rem. */
export const PAGE_LIST_HEIGHT = "h-[calc(100dvh-15rem)] min-h-96";

/**
 * A table over a block-loaded list (useBlockList) in a scroll frame of fixed height:
 * only the rows in view exist in the DOM, the scroll height is the whole count at a
 * fixed row height, and a row whose block has not arrived is a placeholder of the same
 * height — so nothing moves while blocks load. Rows are memoized on their data: scrolling
 * renders only the rows that come into view. Keep `columns` stable (useMemo) for that, and
 * give links in cells `prefetch={false}`: Next prefetches every link that enters the
 * viewport, and a fast scroll through 20,000 rows would prefetch thousands of pages.
 */
export function VirtualTable<T>({
  label,
  columns: allColumns,
  list,
  rowHeight,
  rowTestId,
  scrollTestId,
  onRowClick,
  activeIndex,
  className = PAGE_LIST_HEIGHT,
  fitRows,
  minWidth = "min-w-[48rem]",
}: {
  label: string;
  columns: Column<T>[];
  list: Pick<BlockList<T>, "total" | "rowAt" | "onRowsInView" | "stale" | "resetKey">;
  /** Pixels; every row is exactly this tall. */
  rowHeight: number;
  rowTestId?: string;
  scrollTestId?: string;
  /** A click on the row outside its links and buttons (and not a text selection). */
  onRowClick?: (row: T, event: MouseEvent<HTMLTableRowElement>, index: number) => void;
  /**
   * The row a keyboard cursor is on (a review queue's j/k): marked aria-current, and
   * scrolled into view whenever it changes.
   */
  activeIndex?: number;
  /** Height of the scroll frame (a class) … */
  className?: string;
  /** … or: as tall as the rows, up to this many, then it scrolls (for lists in a page section). */
  fitRows?: number;
  minWidth?: string;
}) {
  const scrollRef = useRef<HTMLElement>(null);
  // A hidden <col> still takes its width in a fixed-layout table (the catalog's rows filled
  // half a phone's width): on a narrow screen the wide-only columns are not rendered at all.
  const narrow = useMediaQuery(NARROW_SCREEN);
  const columns = useMemo(() => (narrow ? allColumns.filter((c) => !c.wideOnly) : allColumns), [narrow, allColumns]);
  const virtualizer = useVirtualizer({
    count: list.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;
  const { onRowsInView } = list;

  useEffect(() => {
    onRowsInView(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRowsInView]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: resetKey is the trigger, not an input
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [list.resetKey, virtualizer]);

  useEffect(() => {
    if (activeIndex !== undefined && activeIndex < list.total)
      virtualizer.scrollToIndex(activeIndex, { align: "auto" });
  }, [activeIndex, list.total, virtualizer]);

  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <section
      ref={scrollRef}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
      tabIndex={0}
      data-testid={scrollTestId}
      style={
        // Header (h-9) and the frame's two borders around the rows shown.
        fitRows ? { height: Math.min(Math.max(list.total, 1), fitRows) * rowHeight + 36 + 2 } : undefined
      }
      className={cn(
        // Contained: rows coming and going while scrolling lay out and paint only inside the
        // frame, not the page behind it (a Source page with charts under the changes dialog).
        "relative overflow-auto overscroll-contain rounded-lg border border-border bg-surface transition-opacity [overflow-anchor:none] [contain:content]",
        list.stale && "opacity-60",
        !fitRows && className,
      )}
    >
      <table
        aria-label={label}
        aria-rowcount={list.total + 1}
        aria-busy={list.stale || undefined}
        className={cn(
          "w-full table-fixed border-separate border-spacing-0 text-left text-sm",
          // With the wide-only columns folded away, a narrow screen needs no minimum width.
          allColumns.some((c) => c.wideOnly) ? minWidth.replace(/^min-w-/, "md:min-w-") : minWidth,
        )}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} className={cn(c.width, c.wideOnly && "max-md:hidden")} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10">
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={c.ariaSort}
                className={cn(
                  "h-9 border-b border-border bg-surface-2 px-3 text-xs font-semibold uppercase tracking-wide text-muted",
                  c.headerClassName,
                  c.wideOnly && "max-md:hidden",
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td colSpan={columns.length} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((v) => (
            <Row
              key={v.key}
              index={v.index}
              row={list.rowAt(v.index)}
              columns={columns}
              height={rowHeight}
              testId={rowTestId}
              onRowClick={onRowClick}
              active={v.index === activeIndex}
            />
          ))}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={columns.length} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function RowOf<T>({
  index,
  row,
  columns,
  height,
  testId,
  onRowClick,
  active,
}: {
  index: number;
  row: T | undefined;
  columns: Column<T>[];
  height: number;
  testId?: string;
  onRowClick?: (row: T, event: MouseEvent<HTMLTableRowElement>, index: number) => void;
  active: boolean;
}) {
  if (row === undefined)
    return (
      <tr aria-rowindex={index + 2} style={{ height }}>
        <td colSpan={columns.length} className="border-b border-border px-3">
          <span className="sr-only">Loading…</span>
          <span aria-hidden className="block h-4 w-2/3 animate-pulse rounded bg-surface-2" />
        </td>
      </tr>
    );
  return (
    <tr
      aria-rowindex={index + 2}
      data-testid={testId}
      aria-current={active ? "true" : undefined}
      style={{ height }}
      className={cn(
        "[&>td]:border-b [&>td]:border-border [&>td]:px-3",
        onRowClick ? "cursor-pointer hover:bg-surface-2/70" : "hover:bg-surface-2/40",
        active && "bg-accent-soft/60 hover:bg-accent-soft/60",
      )}
      onClick={
        onRowClick
          ? (e) => {
              // Links and buttons inside the row do their own thing; selecting text is not a click.
              if ((e.target as HTMLElement).closest("a,button") || window.getSelection()?.toString()) return;
              onRowClick(row, e, index);
            }
          : undefined
      }
    >
      {columns.map((c) => (
        <td key={c.key} className={cn("overflow-hidden", c.className, c.wideOnly && "max-md:hidden")}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}

const Row = memo(RowOf) as typeof RowOf;
