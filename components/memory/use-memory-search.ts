"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/components/trpc/client";
import type { SearchInput } from "./types";

export const SEARCH_PAGE = 25;
/** Characters of each body a hit shows before "Show more". */
export const HIT_BODY_CHARS = 600;

/**
 * A search, a page at a time: `rows` so far, `total` matches, and the pages handle a list
 * (today "Load more", later a virtualized list) drives. Search pages by offset, so the
 * query key is tRPC's own with the infinite marker: invalidating `memories` reaches it.
 */
export function useMemorySearch(input: Omit<SearchInput, "limit" | "offset" | "bodyChars">) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [path, key] = trpc.memories.search.queryKey({ ...input, bodyChars: HIT_BODY_CHARS });
  const pages = useInfiniteQuery({
    queryKey: [path, { ...key, type: "infinite" as const }],
    queryFn: ({ pageParam, signal }) =>
      client.memories.search.query(
        { ...input, bodyChars: HIT_BODY_CHARS, limit: SEARCH_PAGE, offset: pageParam },
        { signal },
      ),
    initialPageParam: 0,
    // `total` counts the memories the query's words or spelling matched; hits also include
    // their episode neighbours (the context signal), so a full page means there may be more.
    getNextPageParam: (last, all) => {
      const shown = all.reduce((n, p) => n + p.hits.length, 0);
      return last.hits.length > 0 && (shown < last.total || last.hits.length === SEARCH_PAGE) ? shown : undefined;
    },
    placeholderData: keepPreviousData,
  });
  const rows = pages.data?.pages.flatMap((p) => p.hits) ?? [];
  const matched = pages.data?.pages[0]?.total ?? 0;
  // Never "25 of 12": context hits beyond the matched count still count as found.
  const total = Math.max(matched, rows.length);
  return { pages, rows, total, matched, time: pages.data?.pages[0]?.time ?? null };
}
