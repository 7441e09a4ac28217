import { readFileSync } from 'node:fs';

/** Megabytes, one decimal. */
export const megabytes = (bytes: number): number => Math.round(bytes / 1e5) / 10;
/** Milliseconds of CPU (user + system) in a `process.cpuUsage()` difference. */
export const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
/**
 * This process's peak RSS so far, in MB: `VmHWM` of /proc/self/status where there is one (Linux),
 * else getrusage's maxrss. On Linux a child's maxrss starts at its parent's peak (it survives the
 * fork and the exec), so a small child of a bench holding 500 MB of pages reported 500 MB;
 * `VmHWM` is the child's own address space's.
 */
export const peakRssMB = (): number => megabytes(peakRssBytes(readProcStatus(), process.resourceUsage().maxRSS));

function readProcStatus(): string | undefined {
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Peak RSS in bytes from the text of /proc/self/status (its `VmHWM` line, in kB) when given and
 * holding one, else from getrusage's maxrss (kB).
 *
 * @example
 * peakRssBytes('VmPeak:\t 900 kB\nVmHWM:\t   40460 kB\n', 504_312); // 41_431_040
 * peakRssBytes(undefined, 504_312); // 516_415_488
 */
export function peakRssBytes(status: string | undefined, maxRssKb: number): number {
  const line = status === undefined ? null : /^VmHWM:\s*(\d+)\s*kB$/m.exec(status);
  return (line === null ? maxRssKb : Number(line[1])) * 1024;
}

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

/** The timings of a question's first search (the first pass over the questions) apart from its repeats. */
export interface PassTimings {
  first: Timings;
  repeats: Timings;
}

/**
 * {@link summarize} of the first `perPass` durations (each question searched for the first time:
 * its terms' postings rows, the pages of its hits and its filter's verdicts are read then, and
 * later passes find them cached) and of the rest apart.
 *
 * @example
 * splitFirstPass([3, 5, 1, 1, 2, 1], 2); // { first: { p50: 3, p99: 5, mean: 4 }, repeats: { p50: 1, p99: 2, mean: 1.25 } }
 */
export function splitFirstPass(durations: readonly number[], perPass: number): PassTimings {
  return { first: summarize(durations.slice(0, perPass)), repeats: summarize(durations.slice(perPass)) };
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

/** How long a bench warms an engine up at least (ms), beyond one pass over its warm-up questions. */
export const WARMUP_MS = 2_000;

/**
 * Runs `work` on every warm-up item once, then on them again round-robin until `minMs` have
 * passed since the start (by `now`): a fixed number of questions left the JIT of a fast engine
 * still compiling (about 20 functions finished optimizing among the timed queries at 0.5 ms a
 * query), while a slow engine reaches that state within its first pass. Returns the calls made.
 *
 * @example
 * await warmUp(warmupQueries, (query) => index.search(query.query, { k: 10 }), () => performance.now(), WARMUP_MS);
 */
export async function warmUp<T>(items: readonly T[], work: (item: T) => unknown, now: () => number, minMs: number): Promise<number> {
  if (items.length === 0) return 0;
  const start = now();
  let calls = 0;
  do {
    for (const item of items) {
      await work(item);
      calls += 1;
    }
  } while (now() - start < minMs);
  return calls;
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
