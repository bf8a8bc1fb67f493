"use client";

import { Loader2, SearchX } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../button";
import { cn } from "../cn";
import { formatCount } from "../format";
import { EmptyState, ErrorState } from "../states";
import type { BlockList } from "./use-block-list";
import { PAGE_LIST_HEIGHT } from "./virtual-table";

type Counted = Pick<BlockList<unknown>, "isPending" | "total" | "everything">;

/** "1,204 of 20,000 Tools" while narrowed, "20,000 Tools" otherwise. */
export function countText(list: Counted, noun: readonly [string, string], narrowed: boolean): string {
  if (list.isPending) return "Counting…";
  const of = (n: number) => (n === 1 ? noun[0] : noun[1]);
  if (narrowed && list.everything !== undefined)
    return `${formatCount(list.total)} of ${formatCount(list.everything)} ${of(list.everything)}`;
  return `${formatCount(list.total)} ${of(list.total)}`;
}

/**
 * The line above a list: its count, and whether blocks are loading or failed. One line of
 * fixed height whatever it says, so the table under it never moves while blocks load.
 */
export function ListStatus({
  list,
  noun,
  narrowed,
  testId,
  children,
}: {
  list: Counted & Pick<BlockList<unknown>, "loadingMore" | "blockError" | "retryBlocks">;
  noun: readonly [string, string];
  narrowed: boolean;
  testId?: string;
  /** Shown after the count, e.g. what the list is ("under the names its agents see"). */
  children?: ReactNode;
}) {
  return (
    <div className="flex h-8 min-w-0 items-center gap-3 overflow-hidden whitespace-nowrap text-sm text-muted">
      <p role="status" aria-live="polite" className="truncate" data-testid={testId}>
        {countText(list, noun, narrowed)}
        {children}
      </p>
      {list.blockError ? (
        <span className="ml-auto inline-flex items-center gap-2 text-danger" role="alert">
          Some rows could not be loaded.
          <Button size="sm" variant="secondary" onClick={list.retryBlocks}>
            Retry
          </Button>
        </span>
      ) : (
        <span
          className={cn("ml-auto inline-flex items-center gap-1.5 text-xs", !list.loadingMore && "invisible")}
          aria-hidden={!list.loadingMore}
        >
          <Loader2 className="size-3.5 animate-spin" aria-hidden /> Loading rows…
        </span>
      )}
    </div>
  );
}

/**
 * Everything a list shows instead of rows — loading, error, empty, and "no match — clear
 * filters" — and the rows (children) otherwise. The loading state fills the same frame as
 * the table, so the first rows arrive without a jump.
 */
export function ListBody({
  list,
  narrowed,
  onClearFilters,
  empty,
  noMatch,
  loadingLabel,
  frameClassName = PAGE_LIST_HEIGHT,
  children,
}: {
  list: Pick<BlockList<unknown>, "isPending" | "isError" | "error" | "retry" | "total">;
  narrowed: boolean;
  onClearFilters?: () => void;
  /** What the list shows when it has no rows at all (an EmptyState saying how rows come to be). */
  empty: ReactNode;
  noMatch?: { title?: string; body?: ReactNode };
  loadingLabel: string;
  frameClassName?: string;
  children: ReactNode;
}) {
  if (list.isPending)
    return (
      <div
        role="status"
        aria-live="polite"
        data-testid="loading-state"
        className={cn("space-y-2 overflow-hidden rounded-lg border border-border bg-surface p-3", frameClassName)}
      >
        <span className="sr-only">{loadingLabel}…</span>
        {Array.from({ length: 8 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <div key={i} className="h-9 animate-pulse rounded-md bg-surface-2" />
        ))}
      </div>
    );
  if (list.isError) return <ErrorState error={list.error} retry={list.retry} />;
  if (list.total === 0 && narrowed)
    return (
      <EmptyState
        title={noMatch?.title ?? "Nothing matches these filters"}
        icon={<SearchX className="size-8" />}
        action={
          onClearFilters && (
            <Button variant="secondary" onClick={onClearFilters}>
              Clear filters
            </Button>
          )
        }
      >
        {noMatch?.body ?? "Try a shorter search or broader filters."}
      </EmptyState>
    );
  if (list.total === 0) return <>{empty}</>;
  return <>{children}</>;
}
