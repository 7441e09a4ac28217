import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration } from './progress.ts';

describe('createProgress', () => {
  it('prints a line at every 10% step with an ETA when stderr is not a terminal', () => {
    const lines: string[] = [];
    let clock = 0;
    const progress = createProgress({ total: 20, label: 'eval compare', write: (text) => lines.push(text), isTTY: false, now: () => clock });
    for (let run = 0; run < 5; run++) {
      clock += 1500;
      progress.tick();
    }
    progress.done();
    expect(lines).toEqual(['eval compare: 2/20 (10%), ETA 27s\n', 'eval compare: 4/20 (20%), ETA 24s\n']);
  });

  it('redraws one line in place on a terminal and ends it on done', () => {
    const writes: string[] = [];
    let clock = 0;
    const progress = createProgress({ total: 4, label: 'eval', write: (text) => writes.push(text), isTTY: true, now: () => clock });
    clock = 30_000;
    progress.tick();
    progress.setTotal(3);
    clock = 60_000;
    progress.tick(2);
    progress.done();
    progress.done();
    expect(writes).toEqual([
      '\r\u001b[2Keval [######------------------] 1/4 25% ETA 1m30s',
      '\r\u001b[2Keval [########################] 3/3 100% ETA 0s',
      '\n',
    ]);
  });
});

describe('formatDuration', () => {
  it('prints seconds, minutes and hours', () => {
    expect([formatDuration(42_400), formatDuration(65_000), formatDuration(3_720_000)]).toEqual(['42s', '1m05s', '1h02m']);
  });
});
