import { describe, expect, it } from 'vitest';
import { peakRssBytes } from './measure.ts';

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
