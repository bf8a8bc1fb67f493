/**
 * Changes announced by the area that makes them, heard by whatever keeps state derived
 * from them (the /mcp call-route cache), so an area does not import its listeners. Heard at
 * once, before `announce` returns. The listeners live on globalThis: the console's writes
 * (tRPC bundle) and /mcp (front server) are separate module graphs in one process
 * (decision 0004), and a change made in one must reach a listener registered in the other.
 * A listener is registered under a name, so a module loaded again replaces its own.
 */

/** What changed: each one can alter which Tool a call reaches, for whom, and how. */
export type Change =
  | "identity" // created, removed, a token or budget changed
  | "assignment" // a Source assigned to an identity, or unassigned
  | "catalog" // a Source's published Tools
  | "source" // a Source's address, headers, pause, removal
  | "host-silence" // an SDK Tool Host fell silent or spoke again
  | "network-policy";

type Listener = (change: Change) => void;
const KEY = Symbol.for("quartermaster.changeListeners");
const store = globalThis as unknown as { [KEY]?: Map<string, Listener> };
if (!store[KEY]) store[KEY] = new Map<string, Listener>();
const listeners: Map<string, Listener> = store[KEY];

export function announce(change: Change): void {
  for (const listener of listeners.values()) listener(change);
}

/** Hears every change under `name` (registering the name again replaces the listener); returns the way to stop. */
export function onChange(name: string, listener: Listener): () => void {
  listeners.set(name, listener);
  return () => {
    if (listeners.get(name) === listener) listeners.delete(name);
  };
}
