/**
 * In-process wake-ups for waiters that poll the database: a signal wakes a waiter on this
 * instance at once, and is never lost. A waiter watches its key before it first reads the
 * database; a signal that arrives while it reads (not yet pausing) ends its next pause at
 * once. Without that, a busy host's calls each waited out a whole polling interval.
 */
interface Entry {
  count: number;
  holders: number;
  listeners: Set<() => void>;
}

const entries = new Map<string, Entry>();

export interface Watch {
  /** Waits up to `ms`, unless the key was signalled since the last pause (or the watch began). */
  pause(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export function watch(key: string): Watch {
  let entry = entries.get(key);
  if (!entry) {
    entry = { count: 0, holders: 0, listeners: new Set() };
    entries.set(key, entry);
  }
  const watched = entry;
  watched.holders++;
  let seen = watched.count;
  return {
    async pause(ms, signal) {
      if (watched.count === seen && !signal?.aborted)
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            watched.listeners.delete(done);
            signal?.removeEventListener("abort", done);
            resolve();
          };
          const timer = setTimeout(done, ms);
          watched.listeners.add(done);
          signal?.addEventListener("abort", done, { once: true });
        });
      seen = watched.count;
    },
    close() {
      if (--watched.holders === 0 && entries.get(key) === watched) entries.delete(key);
    },
  };
}

/** Wakes every waiter on this instance watching `key`; nobody watching, nothing kept. */
export function wake(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entry.count++;
  for (const listener of [...entry.listeners]) listener();
}
