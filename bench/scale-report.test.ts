import { describe, expect, it } from 'vitest';
import { formatScale, meanOverlap, type ScaleEngineResult } from './scale-report.ts';

const engine = (name: ScaleEngineResult['engine'], p50: number, p99: number): ScaleEngineResult => ({
  engine: name,
  search: { p50, p99, mean: p50, cpu: { p50, p99, mean: p50 } },
  peakRssMB: 100,
  openMs: 1,
  overlapWithFts5: 1,
  overlapWithAtlas: 1,
});

describe('meanOverlap', () => {
  it('averages the share of each query ids found in the other list', () => {
    expect(meanOverlap([['x', 'y'], ['z']], [['y', 'w'], ['z']])).toBe(0.75);
    expect(meanOverlap([[]], [[]])).toBe(1);
  });
});

describe('formatScale', () => {
  it('prints a row per engine and size and the growth of each engine between sizes', () => {
    const text = formatScale([
      { size: 1000, chunks: 1000, diskMB: 1, queries: 2, engines: [engine('atlas', 1, 2), engine('lucene', 2, 4)] },
      { size: 10000, chunks: 10000, diskMB: 10, queries: 2, engines: [engine('atlas', 10, 20), engine('lucene', 2 * Math.sqrt(10), 40)] },
    ]);
    expect(text.split('\n').filter((line) => line.startsWith('growth'))).toEqual([
      'growth atlas 1000 -> 10000: p50 1, p99 1, CPU p50 1',
      'growth lucene 1000 -> 10000: p50 0.5, p99 1, CPU p50 0.5',
    ]);
    expect(text.split('\n')[2]).toBe('| 1,000 | atlas | 1.00 | 2.00 | 2.00 | 1.00 | 100 | 1 | 1.00 | 1.00 |');
  });
});
