"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type MouseEvent, useEffect, useRef } from "react";
import { cn } from "@/components/ui/cn";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import type { TListToolsInput } from "@/server/domain/catalog/schemas";
import { CompatibilityBadge } from "./compatibility-badge";
import type { CatalogTool } from "./types";

export type ToolSort = NonNullable<NonNullable<TListToolsInput>["sort"]>;
// Kept here rather than imported, so the browser bundle does not pull in the zod schemas.
export const TOOL_SORTS = ["name", "source", "compatibility", "size", "lastChanged"] as const satisfies ToolSort[];
export type SortDirection = "asc" | "desc";

const ROW_HEIGHT = 72;

const COLUMNS: Array<{ sort: ToolSort; label: string; right?: boolean }> = [
  { sort: "name", label: "Tool" },
  { sort: "source", label: "Source" },
  { sort: "compatibility", label: "Model compatibility" },
  { sort: "size", label: "Size", right: true },
  { sort: "lastChanged", label: "Last changed" },
];

/**
 * Every Tool in one scrolling table. Only the rows in view exist in the DOM; the scroll
 * height is the full result count, and the rows in view are asked for as they come into
 * view (a row not loaded yet shows a placeholder).
 */
export function CatalogTable({
  total,
  rowAt,
  onRowsInView,
  sort,
  direction,
  onSort,
  stale,
  resetKey,
}: {
  total: number;
  rowAt: (index: number) => CatalogTool | undefined;
  onRowsInView: (first: number, last: number) => void;
  sort: ToolSort;
  direction: SortDirection;
  onSort: (sort: ToolSort) => void;
  /** Showing the previous result while a new filter loads. */
  stale: boolean;
  /** Changes when filters or sort change: the list starts again at the top. */
  resetKey: string;
}) {
  const router = useRouter();
  const now = useNow(60_000);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    onRowsInView(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRowsInView]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: resetKey is the trigger, not an input
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [resetKey, virtualizer]);

  function openRow(e: MouseEvent<HTMLTableRowElement>, href: string) {
    // Links and buttons inside the row do their own thing; selecting text is not a click.
    if ((e.target as HTMLElement).closest("a,button") || window.getSelection()?.toString()) return;
    if (e.metaKey || e.ctrlKey) window.open(href, "_blank", "noopener");
    else router.push(href);
  }

  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div
      ref={scrollRef}
      data-testid="catalog-scroll"
      className={cn(
        "h-[calc(100vh-14rem)] min-h-96 overflow-auto rounded-lg border border-border bg-surface transition-opacity",
        stale && "opacity-60",
      )}
    >
      <table
        aria-label="Tools"
        aria-rowcount={total + 1}
        aria-busy={stale || undefined}
        className="w-full min-w-[58rem] table-fixed border-separate border-spacing-0 text-left text-sm"
      >
        <colgroup>
          <col />
          <col className="w-[16%]" />
          <col className="w-[19%]" />
          <col className="w-24" />
          <col className="w-40" />
        </colgroup>
        <thead className="sticky top-0 z-10">
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => {
              const active = c.sort === sort;
              const Icon = active ? (direction === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
              return (
                <th
                  key={c.sort}
                  scope="col"
                  aria-sort={active ? (direction === "asc" ? "ascending" : "descending") : "none"}
                  className={cn("border-b border-border bg-surface-2 px-1.5 py-1", c.right && "text-right")}
                >
                  <button
                    type="button"
                    onClick={() => onSort(c.sort)}
                    className={cn(
                      "inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-1 text-xs font-semibold uppercase tracking-wide hover:bg-surface hover:text-fg",
                      active ? "text-fg" : "text-muted",
                    )}
                  >
                    {c.label}
                    <Icon className={cn("size-3.5", !active && "opacity-60")} aria-hidden />
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td colSpan={5} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((v) => {
            const tool = rowAt(v.index);
            if (!tool)
              return (
                <tr key={v.key} aria-rowindex={v.index + 2} style={{ height: ROW_HEIGHT }}>
                  <td colSpan={5} className="border-b border-border px-3">
                    <span className="sr-only">Loading…</span>
                    <span aria-hidden className="block h-4 w-2/3 animate-pulse rounded bg-surface-2" />
                  </td>
                </tr>
              );
            const href = `/tools/catalog/${tool.id}`;
            return (
              <tr
                key={v.key}
                aria-rowindex={v.index + 2}
                data-testid="catalog-row"
                style={{ height: ROW_HEIGHT }}
                className="cursor-pointer hover:bg-surface-2/70 [&>td]:border-b [&>td]:border-border [&>td]:px-3"
                onClick={(e) => openRow(e, href)}
              >
                <td className="max-w-0 py-2">
                  <div className="flex min-w-0 items-baseline gap-2">
                    <Link
                      href={href}
                      className="truncate font-medium text-accent hover:underline"
                      title={tool.nativeName}
                    >
                      {tool.nativeName}
                    </Link>
                    {tool.title && <span className="truncate text-xs text-muted">{tool.title}</span>}
                  </div>
                  <div className="truncate font-mono text-xs">
                    {tool.modelFacingName ?? <span className="text-muted">no model-facing name</span>}
                  </div>
                  <p className="truncate text-xs text-muted" title={tool.description || undefined}>
                    {tool.description || "No description"}
                  </p>
                </td>
                <td className="max-w-0 truncate" title={tool.sourceName}>
                  {tool.sourceName}
                </td>
                <td>
                  <CompatibilityBadge
                    state={tool.compatibility.state}
                    reason={tool.compatibility.reason}
                    withdrawn={tool.withdrawn}
                  />
                </td>
                <td
                  className="text-right tabular-nums"
                  title={`${formatCount(tool.definitionBytes)} bytes as published; ${formatCount(tool.modelFacingBytes)} bytes model-facing`}
                >
                  {formatBytes(tool.definitionBytes)}
                </td>
                <td className="whitespace-nowrap text-muted" title={formatDateTime(tool.lastChangedAt)}>
                  {formatRelative(tool.lastChangedAt, now)}
                </td>
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={5} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
