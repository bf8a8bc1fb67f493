"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";

/**
 * After an assignment changes, everything about identities may have moved (budgets,
 * holdings, Lost recently, the list) and so have the Sources' identity counts.
 */
export function useInvalidateIdentities() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.sources.pathKey() }),
    ]);
}
