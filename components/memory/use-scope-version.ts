"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/components/trpc/client";

/** How often an open memory list asks whether its scope changed (one tiny query). */
export const SCOPE_VERSION_POLL_MS = 15_000;

/**
 * The scope's list version (scopes.version), polled and refreshed when the window regains
 * focus: the memory lists pass it to useBlockList as `refresh: { version }`, so their
 * blocks are refetched only when something in the scope was written
 * (docs/decisions/0022-memory-lists.md). `changed()` asks again at once, for after a
 * change made on this page.
 */
export function useScopeVersion(scopeId: string | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { scopeId: scopeId ?? "" };
  const version = useQuery({
    ...trpc.scopes.version.queryOptions(input),
    enabled: Boolean(scopeId),
    refetchInterval: SCOPE_VERSION_POLL_MS,
  });
  const changed = useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc.scopes.version.queryKey({ scopeId: scopeId ?? "" }) }),
    [queryClient, trpc, scopeId],
  );
  return { version: version.data?.version, changed };
}
