import { twMerge } from "tailwind-merge";

/** Joins class names; a later Tailwind class wins over an earlier one of the same property. */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return twMerge(parts.filter(Boolean).join(" "));
}
