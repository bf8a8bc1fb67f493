/**
 * Wake-ups for waiters that poll the database: a signal wakes a waiter on this instance at
 * once, and is never lost. A waiter watches its keys before it first reads the database; a
 * signal that arrives while it reads (not yet pausing) ends its next pause at once. Without
 * that, a busy host's calls each waited out a whole polling interval.
 *
 * Another instance's signals arrive through PostgreSQL's LISTEN/NOTIFY (wakeup-listener.ts)
 * and end here as wake(). On globalThis: /mcp (the front server) and the SDK Tool Host API
 * (Next.js's route bundle) are separate module graphs in one process (decision 0004), and a
 * result posted to one must wake the agent's waiter in the other.
 */
interface Entry {
  count: number;
  holders: number;
  listeners: Set<() => void>;
}

const KEY = Symbol.for("quartermaster.wakeups");
const store = globalThis as unknown as { [KEY]?: Map<string, Entry> };
if (!store[KEY]) store[KEY] = new Map<string, Entry>();
const entries: Map<string, Entry> = store[KEY];

export interface Watch {
  /** Waits up to `ms`, unless a key was signalled since the last pause (or the watch began). */
  pause(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/** Watches one or more keys: a signal on any of them ends the pause. */
export function watch(...keys: string[]): Watch {
  const watched = keys.map((key) => {
    let entry = entries.get(key);
    if (!entry) {
      entry = { count: 0, holders: 0, listeners: new Set() };
      entries.set(key, entry);
    }
    entry.holders++;
    return { key, entry, seen: entry.count };
  });
  const signalled = () => watched.some((w) => w.entry.count !== w.seen);
  return {
    async pause(ms, signal) {
      if (!signalled() && !signal?.aborted)
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            for (const w of watched) w.entry.listeners.delete(done);
            signal?.removeEventListener("abort", done);
            resolve();
          };
          const timer = setTimeout(done, ms);
          for (const w of watched) w.entry.listeners.add(done);
          signal?.addEventListener("abort", done, { once: true });
        });
      for (const w of watched) w.seen = w.entry.count;
    },
    close() {
      for (const { key, entry } of watched)
        if (--entry.holders === 0 && entries.get(key) === entry) entries.delete(key);
    },
  };
}

/** Whether a waiter on this instance watches `key` now. */
export function watched(key: string): boolean {
  return (entries.get(key)?.holders ?? 0) > 0;
}

/** Wakes every waiter on this instance watching `key`; nobody watching, nothing kept. */
export function wake(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entry.count++;
  for (const listener of [...entry.listeners]) listener();
}

/**
 * Keys that carry news rather than a prompt to read the database again (an agent's cancel):
 * a wake on one means the event happened, so a resync must not fake it.
 */
export const ANNOUNCED = "announced:";

/**
 * Wakes every waiter on this instance that reads the database: each reads it again. For a
 * listener that was cut off and may have missed signals meanwhile.
 */
export function wakeAll(): void {
  for (const key of [...entries.keys()]) if (!key.startsWith(ANNOUNCED)) wake(key);
}
