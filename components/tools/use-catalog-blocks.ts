"use client";

import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTRPC, useTRPCClient } from "@/components/trpc/client";
import type { TListToolsInput } from "@/server/domain/catalog/schemas";
import { offsetCursor } from "@/server/domain/paging";
import type { CatalogTool } from "./types";

/** Rows per request: a screenful several times over, small enough to arrive at once. */
export const BLOCK_ROWS = 200;

export type CatalogQuery = Omit<NonNullable<TListToolsInput>, "cursor" | "limit">;

/**
 * The catalog's rows around the scroll position, fetched in blocks by offset: scrolling,
 * or dragging the scrollbar to any point of 20,000 rows, loads the blocks in view and
 * their neighbours, never every page before them. Blocks that scroll away are kept for a
 * while; a request for one the user has already scrolled past is cancelled.
 */
export function useCatalogBlocks(query: CatalogQuery) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [view, setView] = useState({ from: 0, to: 0 });

  // The table reports the rows in view; only a change of block causes a new render.
  const onRowsInView = useCallback((first: number, last: number) => {
    const from = Math.floor(first / BLOCK_ROWS);
    const to = Math.floor(last / BLOCK_ROWS);
    setView((v) => (v.from === from && v.to === to ? v : { from, to }));
  }, []);

  const blockQuery = (block: number) => ({
    queryKey: [...trpc.catalog.listTools.pathKey(), { input: query, block }],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      client.catalog.listTools.query(
        { ...query, cursor: offsetCursor(block * BLOCK_ROWS), limit: BLOCK_ROWS },
        { signal },
      ),
  });
  // The first block carries the count, and keeps the old rows on screen while a new filter loads.
  const head = useQuery({ ...blockQuery(0), placeholderData: keepPreviousData });
  const total = head.data?.total ?? 0;
  const lastBlock = Math.max(0, Math.ceil(total / BLOCK_ROWS) - 1);
  const wanted: number[] = [];
  if (!head.isPlaceholderData)
    for (let b = Math.max(1, view.from - 1); b <= Math.min(lastBlock, view.to + 1); b++) wanted.push(b);
  const rest = useQueries({ queries: wanted.map(blockQuery) });

  const blocks = new Map<number, CatalogTool[] | undefined>([[0, head.data?.items]]);
  for (const [i, b] of wanted.entries()) blocks.set(b, rest[i]?.data?.items);
  return {
    head,
    total,
    rowAt: (index: number) => blocks.get(Math.floor(index / BLOCK_ROWS))?.[index % BLOCK_ROWS],
    loadingMore: rest.some((q) => q.isFetching),
    onRowsInView,
  };
}
