"use client";

import { useSyncExternalStore } from "react";

/** Tailwind's md breakpoint: below it a table keeps only its name and state columns. */
export const NARROW_SCREEN = "(max-width: 767.98px)";

/**
 * Whether a media query matches, following changes (a rotated phone). On the server and
 * during hydration it is `false`: the wide layout, which CSS folds until this takes over.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
