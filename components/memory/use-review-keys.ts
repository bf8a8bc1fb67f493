"use client";

import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";

/**
 * Single-key shortcuts for a review queue (j/k/a/r/x). They never fire while the user types
 * in a field, holds a modifier or has a dialog open, and they can be switched off (WCAG
 * 2.1.4: character-key shortcuts must be possible to turn off).
 */
const TYPING_OR_DIALOG =
  "input, textarea, select, [contenteditable=''], [contenteditable='true'], [role=textbox], dialog, [role=dialog], [role=alertdialog]";

export function useReviewKeys(enabled: boolean, handlers: Record<string, () => unknown>) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.isComposing) return;
      // Neither where the key went nor where focus is may be a field or inside a dialog.
      for (const at of [e.target, document.activeElement])
        if (at instanceof Element && at.closest(TYPING_OR_DIALOG)) return;
      if (document.querySelector("dialog[open]")) return;
      const handler = latest.current[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled]);
}

const KEY = "qm.review.shortcuts";
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const read = () => {
  try {
    return window.localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
};

/** Whether review shortcuts are on in this browser (on unless switched off). */
export function useShortcutsSetting(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, read, () => true);
  const set = useCallback((next: boolean) => {
    try {
      window.localStorage.setItem(KEY, next ? "on" : "off");
    } catch {
      return;
    }
    for (const l of listeners) l();
  }, []);
  return [on, set];
}
