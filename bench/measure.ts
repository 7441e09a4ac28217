import { readFileSync } from 'node:fs';

/** Summary of repeated timings, in milliseconds. */
export interface Timings {
  p50: number;
  p99: number;
  mean: number;
}

/**
 * p50, p99 (nearest rank) and mean of a list of durations.
 *
 * @example
 * summarize([1, 2, 3, 4]) // { p50: 2, p99: 4, mean: 2.5 }
 */
export function summarize(durations: number[]): Timings {
  const sorted = [...durations].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { p50: rank(0.5), p99: rank(0.99), mean };
}

/**
 * Runs `work` once per item, timing each call with `now`, after `warmup` untimed calls.
 *
 * @example
 * const timings = await timeEach(queries, (query) => index.search(query, { k: 10 }), performance.now.bind(performance), 20);
 */
export async function timeEach<T>(
  items: readonly T[],
  work: (item: T, position: number) => unknown,
  now: () => number,
  warmup: number,
): Promise<number[]> {
  for (let position = 0; position < Math.min(warmup, items.length); position += 1) await work(items[position]!, position);
  const durations: number[] = [];
  for (let position = 0; position < items.length; position += 1) {
    const start = now();
    await work(items[position]!, position);
    durations.push(now() - start);
  }
  return durations;
}

/**
 * CPU time (ms) this process's main thread has used so far, from `/proc/self/task/<pid>/schedstat`
 * (Linux); undefined where that is not readable. Beside `process.cpuUsage()`, which counts every
 * thread: of a streamed ingest, the share of the thread that writes SQLite.
 *
 * @example
 * const before = mainThreadCpuMs(); await work(); const used = mainThreadCpuMs()! - before!;
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}
