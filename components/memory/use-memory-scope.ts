"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useTRPC } from "@/components/trpc/client";
import { useUrlState } from "@/components/ui/use-url-state";
import type { ScopeItem } from "./types";

const STORAGE_KEY = "qm.memory.scope";

// The remembered scope, read as an external store: the server renders without it, the
// browser with it, and React reconciles the two without a hydration mismatch.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}
function readRemembered(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    return "";
  }
}
export function rememberScope(id: string): void {
  try {
    if (window.localStorage.getItem(STORAGE_KEY) === id) return;
    window.localStorage.setItem(STORAGE_KEY, id);
  } catch {
    return;
  }
  for (const l of listeners) l();
}

/** URL parameters that only mean something within one scope; switching scope drops them. */
const SCOPE_BOUND = ["thread"] as const;

/**
 * The scope the memory pages show: `?scope=` when it names a readable scope, else the one
 * last chosen in this browser, else the first. Choosing one writes both. The address gains
 * `?scope=` only when a scope is chosen, so a plain "Memories" link opens the remembered one.
 */
export function useMemoryScope() {
  const trpc = useTRPC();
  const scopes = useQuery(trpc.scopes.list.queryOptions());
  const [params, setParams] = useUrlState(["scope", ...SCOPE_BOUND] as const);
  const remembered = useSyncExternalStore(subscribe, readRemembered, () => "");
  const list = scopes.data ?? [];
  const fromUrl = params.scope ? list.find((s) => s.id === params.scope) : undefined;
  const scope: ScopeItem | null = fromUrl ?? list.find((s) => s.id === remembered) ?? list[0] ?? null;
  /** The address named a scope that is not there to read (deleted, or a mistyped link). */
  const missing = Boolean(scopes.data && params.scope && !fromUrl);

  useEffect(() => {
    if (fromUrl) rememberScope(fromUrl.id);
  }, [fromUrl]);

  const setScope = useCallback(
    (id: string) => {
      rememberScope(id);
      setParams({ scope: id, thread: null });
    },
    [setParams],
  );
  return { scopes, scope, missing, setScope };
}
