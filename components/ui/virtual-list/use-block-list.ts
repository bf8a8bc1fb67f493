"use client";

import { hashKey, keepPreviousData, type Query, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DecorateQueryProcedure, ResolverDef } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { offsetCursor } from "@/universal/paging";

/** Rows per request: a screenful several times over, small enough to arrive at once. */
export const BLOCK_ROWS = 200;

/** What every list procedure the console scrolls through answers (server/domain/paging.ts). */
export interface ListPage<T = unknown> {
  items: T[];
  total: number;
  nextCursor?: string | null;
}

type ListDef = ResolverDef & {
  // biome-ignore lint/suspicious/noConfusingVoidType: tRPC types an input with a default as void | …
  input: { cursor?: string; limit?: number } | undefined | void;
  output: ListPage;
};
/** A list procedure's input without its paging: what a view filters by. */
export type ListFilters<TDef extends ListDef> = Omit<NonNullable<TDef["input"]>, "cursor" | "limit">;
export type ListItem<TDef extends ListDef> = TDef["output"]["items"][number];

/**
 * How a list learns that its rows changed, so it refetches blocks only then:
 * - `"head"`: the first block is refetched when the window regains focus (and every
 *   `refetchInterval`); when it reads differently (count or rows), the other blocks are
 *   refetched — the ones in view at once, the rest when next scrolled to. Enough for lists
 *   whose changes reach the top: newest-first logs and histories.
 * - `{ version }`: a value the caller already polls (e.g. `identities.get`'s
 *   `holdingsVersion`, `catalog.facets`' `version`) that moves whenever any row could read
 *   differently. Blocks never refetch on their own; a new version refetches them as above.
 *   Needed for lists sorted by name, where a change may sit in any block.
 */
export type BlockRefresh = "head" | { version: unknown };

export interface BlockListOptions<TDef extends ListDef> {
  refresh?: BlockRefresh;
  /** With refresh "head": also refetch the first block this often (ms). */
  refetchInterval?: number;
  /**
   * The filters without the user's narrowing (search, facets): their count is the N of
   * "n of N" while the view is narrowed. Leave out when the caller knows N already.
   */
  unfiltered?: ListFilters<TDef>;
  blockRows?: number;
  enabled?: boolean;
}

export interface BlockList<T> {
  /** The first block has not arrived yet (nothing to show). */
  isPending: boolean;
  isError: boolean;
  error: { message: string } | null;
  retry: () => void;
  /** Rows matching the filters. */
  total: number;
  /** Rows matching `unfiltered` (the same as total when not narrowed); undefined until known. */
  everything: number | undefined;
  /** The row at a position, or undefined while its block loads. */
  rowAt: (index: number) => T | undefined;
  /** For the table: the first and last row index in view. */
  onRowsInView: (first: number, last: number) => void;
  /** A block in view is loading for the first time. */
  loadingMore: boolean;
  /** A block in view failed; retryBlocks asks again. */
  blockError: { message: string } | null;
  retryBlocks: () => void;
  /** Showing the previous filters' rows while the new ones load. */
  stale: boolean;
  /** Changes whenever the filters do: the table starts again at the top. */
  resetKey: string;
}

/** A block list with the first block as the procedure answered it (fields beside items, e.g. a search's `matched`). */
export type BlockListOf<TDef extends ListDef> = BlockList<ListItem<TDef>> & { head: TDef["output"] | undefined };

// Lets tRPC hand TanStack's signal to fetch, so a block scrolled past is not still downloaded.
const ABORTABLE = { trpc: { abortOnUnmount: true } };
// Blocks are refetched when the list learns it changed, never because time passed or focus came back.
const QUIET = { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, refetchOnReconnect: false } as const;

const blockInput = (query: Query) => (query.queryKey[1] as { input?: { cursor?: string; limit?: number } })?.input;

/**
 * The rows of a tRPC list procedure (`{ cursor, limit, …filters }` → `{ items, total,
 * nextCursor }`, offset cursors) around the scroll position, fetched in blocks by offset:
 * scrolling, or dragging the scrollbar to any point of 20,000 rows, loads the blocks in
 * view and their neighbours, never every block before them. Blocks that scroll away stay
 * cached for a while; a request for one already scrolled past is cancelled. Pair it with
 * VirtualTable (rows) and ListStatus / ListBody (count, states). See
 * docs/decisions/0017-block-lists.md.
 *
 *   const list = useBlockList(trpc.identities.holdings, { id, search }, {
 *     refresh: { version: identity.holdingsVersion },
 *   });
 */
export function useBlockList<TDef extends ListDef>(
  procedure: DecorateQueryProcedure<TDef>,
  filters: ListFilters<TDef>,
  options: BlockListOptions<TDef> = {},
): BlockListOf<TDef> {
  type Item = ListItem<TDef>;
  const rows = options.blockRows ?? BLOCK_ROWS;
  const enabled = options.enabled ?? true;
  const refresh = options.refresh ?? "head";
  const versioned = refresh !== "head";
  const queryClient = useQueryClient();
  const filtersKey = JSON.stringify(filters);

  // The rows in view, per filters: new filters start at the top even before the table says so.
  const [view, setView] = useState({ key: filtersKey, from: 0, to: 0 });
  const onRowsInView = useCallback(
    (first: number, last: number) => {
      const from = Math.floor(first / rows);
      const to = Math.floor(last / rows);
      setView((v) => (v.key === filtersKey && v.from === from && v.to === to ? v : { key: filtersKey, from, to }));
    },
    [rows, filtersKey],
  );
  const inView = view.key === filtersKey ? view : { from: 0, to: 0 };

  const blockOptions = (block: number) =>
    procedure.queryOptions({ ...filters, cursor: offsetCursor(block * rows), limit: rows } as TDef["input"], ABORTABLE);
  // The first block carries the count, and keeps the old rows on screen while new filters load.
  const head = useQuery({
    ...blockOptions(0),
    enabled,
    placeholderData: keepPreviousData,
    ...(versioned ? QUIET : { refetchInterval: options.refetchInterval }),
  });
  const headData = head.data as ListPage<Item> | undefined;
  const total = headData?.total ?? 0;
  const lastBlock = Math.max(0, Math.ceil(total / rows) - 1);
  const wanted: number[] = [];
  if (!head.isPlaceholderData)
    for (let b = Math.max(1, inView.from - 1); b <= Math.min(lastBlock, inView.to + 1); b++) wanted.push(b);
  const rest = useQueries({ queries: wanted.map((b) => ({ ...blockOptions(b), enabled, ...QUIET })) });

  const narrowed = options.unfiltered !== undefined && JSON.stringify(options.unfiltered) !== filtersKey;
  const countOptions = procedure.queryOptions({ ...options.unfiltered, limit: 1 } as TDef["input"]);
  const count = useQuery({
    ...countOptions,
    enabled: enabled && narrowed,
    placeholderData: keepPreviousData,
    // One row: refreshed like the first block, or with the version.
    ...(versioned ? QUIET : {}),
  });

  // Refetch the blocks when the list changed: on a new version, or a first block that reads differently.
  const headMark = useMemo(
    () => (headData && !head.isPlaceholderData ? `${headData.total}\u0000${JSON.stringify(headData.items)}` : null),
    [headData, head.isPlaceholderData],
  );
  const mark = versioned ? refresh.version : headMark;
  const seen = useRef<{ key: string; mark: unknown } | null>(null);
  const headHash = hashKey(blockOptions(0).queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the mark moves; the filters are in filtersKey
  useEffect(() => {
    const before = seen.current;
    seen.current = { key: filtersKey, mark };
    if (!before || mark == null || before.mark == null || Object.is(before.mark, mark)) return;
    // One filter's first block says nothing about another's.
    if (!versioned && before.key !== filtersKey) return;
    void queryClient.invalidateQueries({
      queryKey: procedure.pathKey(),
      // Every cached block of this list whatever its filters (those in view refetch now, the rest
      // when next shown) and the counts of "n of N"; not the first block that just told us.
      predicate: (q) => {
        const limit = blockInput(q)?.limit;
        return (limit === rows || limit === 1) && (versioned || q.queryHash !== headHash);
      },
    });
  }, [mark, filtersKey]);

  const blocks = new Map<number, Item[] | undefined>([[0, headData?.items]]);
  for (const [i, b] of wanted.entries()) blocks.set(b, (rest[i]?.data as ListPage<Item> | undefined)?.items);
  const failed = rest.filter((q) => q.isError);
  return {
    isPending: head.isPending,
    isError: head.isError,
    error: head.error,
    retry: () => void head.refetch(),
    total,
    everything: narrowed ? (count.data as ListPage | undefined)?.total : headData?.total,
    rowAt: (index) => blocks.get(Math.floor(index / rows))?.[index % rows],
    onRowsInView,
    loadingMore: rest.some((q) => q.isPending && q.isFetching),
    blockError: failed[0]?.error ?? null,
    retryBlocks: () => {
      for (const q of failed) void q.refetch();
    },
    stale: head.isPlaceholderData,
    resetKey: filtersKey,
    head: head.data as TDef["output"] | undefined,
  };
}
