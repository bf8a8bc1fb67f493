"use client";

import { useEffect, useState } from "react";

/**
 * The current time, re-read every `ms` while `active`: relative times ("2 minutes ago")
 * and elapsed counters stay true without refetching anything.
 */
export function useNow(ms = 30_000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms, active]);
  return now;
}
