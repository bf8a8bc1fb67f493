"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Breadcrumbs } from "./breadcrumbs";
import { PageHeader } from "./page-header";
import { parseError } from "./parse-error";
import { EmptyState, ErrorState, LoadingRows } from "./states";

/** What QueryView reads of a React Query result: its state, its data and how to ask again. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: { message: string } | null;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * The one pending / error / empty / loaded switch of a query the console shows: rows while
 * it loads, the error with a retry, `empty` when the answer is an empty list, else `children`.
 * Paged lists use ListBody (virtual-list/list-states.tsx), which counts a total instead.
 */
export function QueryView<T>({
  query,
  loadingLabel,
  loadingRows,
  empty,
  children,
}: {
  query: QueryLike<T>;
  loadingLabel: string;
  loadingRows?: number;
  /** Shown when the answer is an empty list; without it an empty list goes to `children`. */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingRows rows={loadingRows} label={loadingLabel} />;
  if (query.isError || query.data === undefined)
    return <ErrorState error={query.error} retry={() => query.refetch()} />;
  if (empty !== undefined && Array.isArray(query.data) && query.data.length === 0) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/**
 * A detail page's query: breadcrumbs and a header while it loads, a "not found" page with a
 * way back when the server answers 404, the error with a retry otherwise, else the page.
 */
export function DetailQuery<T>({
  query,
  parent,
  noun,
  loadingLabel,
  bareLoading = false,
  missing,
  children,
}: {
  query: QueryLike<T>;
  /** The list this object belongs to: the breadcrumb before it and the way back. */
  parent: { href: string; label: string };
  /** What the page shows ("Scope"): its header while loading and in "Scope not found". */
  noun: string;
  loadingLabel: string;
  /** Loading rows only, without breadcrumbs and header (as the catalog's pages load). */
  bareLoading?: boolean;
  missing: { title: string; body: ReactNode; back?: string };
  children: (data: T) => ReactNode;
}) {
  const crumbs = (label: string) => <Breadcrumbs items={[parent, { label }]} />;
  if (query.isPending)
    return bareLoading ? (
      <LoadingRows label={loadingLabel} />
    ) : (
      <>
        {crumbs("Loading…")}
        <PageHeader title={noun} />
        <LoadingRows label={loadingLabel} />
      </>
    );
  if (query.isError || query.data === undefined) {
    const notFound = parseError(query.error)?.status === 404;
    return (
      <>
        {crumbs("Not found")}
        <PageHeader title={notFound ? `${noun} not found` : noun} />
        {notFound ? (
          <EmptyState
            title={missing.title}
            action={
              <Link href={parent.href} className="text-accent underline">
                {missing.back ?? `Back to ${parent.label}`}
              </Link>
            }
          >
            {missing.body}
          </EmptyState>
        ) : (
          <ErrorState error={query.error} retry={() => query.refetch()} />
        )}
      </>
    );
  }
  return <>{children(query.data)}</>;
}
