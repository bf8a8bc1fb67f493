"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { useDebounced } from "./use-debounced";

/**
 * Filters live in the URL so a view can be linked and survives a reload.
 * Empty values are removed rather than written as `?x=`.
 */
export function useUrlState<K extends string>(keys: readonly K[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>;
  const set = useCallback(
    (patch: Partial<Record<K, string | null | undefined>>) => {
      // From the address as it is now, not as it was at render: two changes in one
      // moment must both survive.
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch) as [K, string | null | undefined][]) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router],
  );
  return [values, set] as const;
}

/**
 * A search box whose text goes into the URL as `q` (or `key`) once typing pauses: the box
 * answers every keystroke, the address (and the query it drives) only the settled text.
 */
export function useUrlSearch<K extends string = "q">(
  current: string,
  setFilters: (patch: Partial<Record<K, string | null>>) => void,
  key: K = "q" as K,
) {
  const [search, setSearch] = useState(current);
  const settled = useDebounced(search);
  useEffect(() => {
    if (settled !== current) setFilters({ [key]: settled } as Partial<Record<K, string | null>>);
  }, [settled, current, setFilters, key]);
  return [search, setSearch] as const;
}
