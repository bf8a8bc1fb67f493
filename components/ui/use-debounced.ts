"use client";

import { useEffect, useState } from "react";

export function useDebounced<T>(value: T, ms = 250): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return current;
}
