"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** This console's origin, for copyable /mcp URLs; empty during server rendering. */
export function useOrigin(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => "",
  );
}
