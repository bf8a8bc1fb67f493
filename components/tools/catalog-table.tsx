"use client";

import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type MouseEvent, type ReactNode, useCallback, useMemo } from "react";
import { cn } from "@/components/ui/cn";
import { formatBytes, formatCount } from "@/components/ui/format";
import { RelativeTime } from "@/components/ui/relative-time";
import { useNow } from "@/components/ui/use-now";
import type { BlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import type { TListToolsInput } from "@/server/domain/catalog/schemas";
import { CompatibilityBadge } from "./compatibility-badge";
import type { CatalogTool } from "./types";

export type ToolSort = NonNullable<NonNullable<TListToolsInput>["sort"]>;
// Kept here rather than imported, so the browser bundle does not pull in the zod schemas.
export const TOOL_SORTS = ["name", "source", "compatibility", "size", "lastChanged"] as const satisfies ToolSort[];
export type SortDirection = "asc" | "desc";

const SORTABLE: Array<{
  sort: ToolSort;
  label: string;
  /** The header on a phone, where the column is narrow. */
  short?: string;
  width?: string;
  right?: boolean;
  wideOnly?: boolean;
}> = [
  { sort: "name", label: "Tool" },
  { sort: "source", label: "Source", width: "w-[16%]", wideOnly: true },
  { sort: "compatibility", label: "Model compatibility", short: "State", width: "w-[19%] max-md:w-32" },
  { sort: "size", label: "Size", width: "w-24", right: true, wideOnly: true },
  { sort: "lastChanged", label: "Last changed", width: "w-40", wideOnly: true },
];

function cellOf(sort: ToolSort, now: number): (tool: CatalogTool) => ReactNode {
  switch (sort) {
    case "name":
      return (tool) => (
        <>
          <div className="flex min-w-0 items-baseline gap-2">
            <Link
              href={`/tools/catalog/${tool.id}`}
              prefetch={false}
              className="truncate font-medium text-accent hover:underline"
              title={tool.nativeName}
            >
              {tool.nativeName}
            </Link>
            {/* A phone gives the name the whole line: the title is on the Tool's page. */}
            {tool.title && <span className="truncate text-xs text-muted max-md:hidden">{tool.title}</span>}
          </div>
          <div className="truncate font-mono text-xs">
            {tool.modelFacingName ?? <span className="text-muted">no model-facing name</span>}
          </div>
          <p className="truncate text-xs text-muted" title={tool.description || undefined}>
            {tool.description || "No description"}
          </p>
        </>
      );
    case "source":
      return (tool) => <span title={tool.sourceName}>{tool.sourceName}</span>;
    case "compatibility":
      return (tool) => (
        <CompatibilityBadge
          state={tool.compatibility.state}
          reason={tool.compatibility.reason}
          withdrawn={tool.withdrawn}
        />
      );
    case "size":
      return (tool) => (
        <span
          title={`${formatCount(tool.definitionBytes)} bytes as published; ${formatCount(tool.modelFacingBytes)} bytes model-facing`}
        >
          {formatBytes(tool.definitionBytes)}
        </span>
      );
    case "lastChanged":
      return (tool) => <RelativeTime at={tool.lastChangedAt} now={now} />;
  }
}

const CELL_CLASS: Record<ToolSort, string> = {
  name: "py-2",
  source: "truncate",
  compatibility: "",
  size: "text-right tabular-nums",
  lastChanged: "whitespace-nowrap text-muted",
};

/**
 * Every Tool in one scrolling table (VirtualTable over useBlockList): sortable by any
 * column, and a click anywhere on a row opens the Tool.
 */
export function CatalogTable({
  list,
  sort,
  direction,
  onSort,
}: {
  list: BlockList<CatalogTool>;
  sort: ToolSort;
  direction: SortDirection;
  onSort: (sort: ToolSort) => void;
}) {
  const router = useRouter();
  const now = useNow(60_000);
  const columns = useMemo<Column<CatalogTool>[]>(
    () =>
      SORTABLE.map((c) => {
        const active = c.sort === sort;
        const Icon = active ? (direction === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
        return {
          key: c.sort,
          width: c.width,
          wideOnly: c.wideOnly,
          ariaSort: active ? (direction === "asc" ? "ascending" : "descending") : "none",
          headerClassName: cn("px-1.5", c.right && "text-right"),
          className: CELL_CLASS[c.sort],
          header: (
            <button
              type="button"
              title={c.sort === "compatibility" ? "Sort by model compatibility (worst first)" : undefined}
              onClick={() => onSort(c.sort)}
              className={cn(
                "inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-1 text-xs font-semibold uppercase tracking-wide hover:bg-surface hover:text-fg",
                active ? "text-fg" : "text-muted",
              )}
            >
              {c.short ? (
                <>
                  <span className="md:hidden">{c.short}</span>
                  <span className="max-md:hidden">{c.label}</span>
                </>
              ) : (
                c.label
              )}
              <Icon className={cn("size-3.5", !active && "opacity-60")} aria-hidden />
            </button>
          ),
          cell: cellOf(c.sort, now),
        };
      }),
    [sort, direction, onSort, now],
  );
  const openRow = useCallback(
    (tool: CatalogTool, e: MouseEvent<HTMLTableRowElement>) => {
      const href = `/tools/catalog/${tool.id}`;
      if (e.metaKey || e.ctrlKey) window.open(href, "_blank", "noopener");
      else router.push(href);
    },
    [router],
  );

  return (
    <VirtualTable
      label="Tools"
      columns={columns}
      list={list}
      rowHeight={72}
      rowTestId="catalog-row"
      scrollTestId="catalog-scroll"
      onRowClick={openRow}
      minWidth="min-w-[58rem]"
      className="h-[calc(100dvh-14rem)] min-h-96"
    />
  );
}
