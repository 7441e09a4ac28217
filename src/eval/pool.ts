/**
 * Runs `worker` over `items` with at most `concurrency` in flight; results keep the input order
 * whatever order the work finishes in. A worker that throws rejects the whole pool (workers
 * that should not fail catch their own errors).
 *
 * @example
 * const runs = await runPool(cases, 4, (item) => agenticRun(item.question, options));
 */
export async function runPool<T, R>(items: readonly T[], concurrency: number, worker: (item: T, position: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const position = next++;
      results[position] = await worker(items[position] as T, position);
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(concurrency), items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

/** Waits `ms` milliseconds; injected so tests never really sleep. */
export type Sleep = (ms: number) => Promise<void>;

/** The real sleep. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Options of {@link withRetry}. */
export interface RetryOptions<R> {
  /** Extra attempts after the first (default 1). */
  retries?: number;
  /** Wait before retry n (1-based) is `backoffMs * n` (default 2000 ms). */
  backoffMs?: number;
  sleep?: Sleep;
  /** A result that counts as failed, e.g. a run that stopped on a provider error. */
  failed?: (result: R) => boolean;
  /** Told about each retry, with the reason. */
  onRetry?: (attempt: number, reason: string) => void;
}

/**
 * Runs `task`, and again after a backoff when it throws or its result counts as failed
 * (rate limits beyond the provider client's own retries, transient outages). Returns the last
 * result; rethrows the last error when every attempt threw.
 *
 * @example
 * const run = await withRetry(() => agenticRun(q, options), { failed: (run) => run.trace.stopReason === 'error', sleep });
 */
export async function withRetry<R>(task: () => Promise<R>, options: RetryOptions<R> = {}): Promise<R> {
  const retries = options.retries ?? 1;
  const sleep = options.sleep ?? realSleep;
  for (let attempt = 0; ; attempt++) {
    let reason: string;
    try {
      const result = await task();
      if (!options.failed?.(result) || attempt >= retries) return result;
      reason = 'the run failed';
    } catch (error) {
      if (attempt >= retries) throw error;
      reason = error instanceof Error ? error.message : String(error);
    }
    options.onRetry?.(attempt + 1, reason);
    await sleep((options.backoffMs ?? 2000) * (attempt + 1));
  }
}
