import { describe, expect, it } from 'vitest';
import { peakRssBytes, splitFirstPass } from './measure.ts';

describe('peakRssBytes', () => {
  it('reads VmHWM from /proc/self/status, not the maxrss a child inherits from its parent', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1161828 kB\nVmSize:\t 1096292 kB\nVmHWM:\t   40460 kB\nVmRSS:\t   40460 kB\n';
    expect(peakRssBytes(status, 504_312)).toBe(40_460 * 1024);
  });

  it('falls back to maxrss where there is no /proc or no VmHWM line', () => {
    expect(peakRssBytes(undefined, 504_312)).toBe(504_312 * 1024);
    expect(peakRssBytes('Name:\tnode\n', 2_048)).toBe(2_048 * 1024);
  });
});

describe('splitFirstPass', () => {
  it('summarises the first pass over the questions apart from the passes that repeat them', () => {
    expect(splitFirstPass([3, 5, 1, 1, 2, 1], 2)).toEqual({ first: { p50: 3, p99: 5, mean: 4 }, repeats: { p50: 1, p99: 2, mean: 1.25 } });
  });

  it('gives empty repeats when there was one pass', () => {
    expect(splitFirstPass([2, 4], 2)).toEqual({ first: { p50: 2, p99: 4, mean: 3 }, repeats: { p50: 0, p99: 0, mean: 0 } });
  });
});
