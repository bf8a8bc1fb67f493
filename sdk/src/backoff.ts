/**
 * Exponential back-off with jitter: after the n-th failure in a row, wait a random time
 * between half and all of min(max, initial × 2^n). The jitter spreads the hosts that lost
 * Quartermaster together (a restart), so they do not all come back in the same instant.
 */
export interface BackoffOptions {
  /** First wait, in ms (default 500). */
  initialMs?: number;
  /** Longest wait, in ms (default 30,000). */
  maxMs?: number;
}

export class Backoff {
  private failures = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  constructor(
    options: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.initialMs = Math.max(1, options.initialMs ?? 500);
    this.maxMs = Math.max(this.initialMs, options.maxMs ?? 30_000);
  }
  /** The wait before the next attempt; each call counts one more failure. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return Math.round(ceiling * (0.5 + this.random() * 0.5));
  }
  reset(): void {
    this.failures = 0;
  }
  get attempts(): number {
    return this.failures;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
