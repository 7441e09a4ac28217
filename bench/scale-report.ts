/**
 * What bench/scale.ts reports: each engine's timings at each size, summarised, as a table with
 * the growth exponents between sizes.
 */
import type { Timings } from './measure.ts';

/** The engines of this bench. */
export const SCALE_ENGINES = ['atlas', 'fts5', 'lucene'] as const;
export type ScaleEngine = (typeof SCALE_ENGINES)[number];

/** One engine at one size, summarised. */
export interface ScaleEngineResult {
  engine: ScaleEngine;
  search: Timings & { cpu: Timings };
  peakRssMB: number;
  openMs: number;
  /** Mean share of the top 10 that is also in raw FTS5's top 10 (raw FTS5 ranks the plain words only). */
  overlapWithFts5: number;
  /** Mean share of the top 10 that is also in Atlas's top 10. */
  overlapWithAtlas: number;
  verified?: { same: number; of: number };
}

/** One size: its chunks, the database on disk, and each engine's results. */
export interface ScaleSizeResult {
  size: number;
  chunks: number;
  diskMB: number;
  buildSeconds?: number;
  queries: number;
  engines: ScaleEngineResult[];
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** `log(t2 / t1) / log(n2 / n1)`: 1 is linear, 0 flat. */
function growth(t1: number, t2: number, n1: number, n2: number): number {
  return round(Math.log(t2 / t1) / Math.log(n2 / n1), 2);
}

/**
 * The table of `sizes` (one row per engine and size), the exactness checks, and each engine's
 * growth exponents from one size to the next.
 *
 * @example
 * process.stdout.write(`${formatScale(sizes)}\n`);
 */
export function formatScale(sizes: ScaleSizeResult[]): string {
  const lines = ['| chunks | engine | p50 ms | p99 ms | p99 ÷ p50 | CPU p50 ms | peak RSS MB | db MB | top-10 overlap with FTS5 | with Atlas |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const size of sizes) {
    for (const engine of size.engines) {
      const { search } = engine;
      lines.push(
        `| ${size.chunks.toLocaleString('en-US')} | ${engine.engine} | ${search.p50.toFixed(2)} | ${search.p99.toFixed(2)} | ${(search.p99 / search.p50).toFixed(2)} | ${search.cpu.p50.toFixed(2)} | ${engine.peakRssMB} | ${size.diskMB} | ${engine.overlapWithFts5.toFixed(2)} | ${engine.overlapWithAtlas.toFixed(2)} |`,
      );
    }
  }
  for (const size of sizes) {
    for (const engine of size.engines) {
      if (engine.verified !== undefined) lines.push(`${engine.engine} at ${size.chunks}: exactly the full query's top 10 (rows and scores) for ${engine.verified.same} of ${engine.verified.of} checked queries`);
    }
  }
  lines.push('');
  for (const engine of SCALE_ENGINES) {
    const points = sizes.map((size) => ({ chunks: size.chunks, result: size.engines.find((one) => one.engine === engine) })).filter((point) => point.result);
    for (let n = 1; n < points.length; n += 1) {
      const [a, b] = [points[n - 1]!, points[n]!];
      lines.push(
        `growth ${engine} ${a.chunks} -> ${b.chunks}: p50 ${growth(a.result!.search.p50, b.result!.search.p50, a.chunks, b.chunks)}, p99 ${growth(a.result!.search.p99, b.result!.search.p99, a.chunks, b.chunks)}, CPU p50 ${growth(a.result!.search.cpu.p50, b.result!.search.cpu.p50, a.chunks, b.chunks)}`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The mean share of each query's ids in `a` that are also in `b` (same positions), 2 decimals.
 *
 * @example
 * meanOverlap([['x', 'y']], [['y', 'z']]); // 0.5
 */
export function meanOverlap(a: string[][], b: string[][]): number {
  const shares = a.map((ids, n) => {
    const other = new Set(b[n] ?? []);
    const size = Math.max(ids.length, other.size);
    return size === 0 ? 1 : ids.filter((id) => other.has(id)).length / size;
  });
  return round(shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length), 2);
}
