import { describe, expect, it } from 'vitest';
import { docRecall, median, round3, spreadOf, stdev, totalCost } from './metrics.ts';
import { formatTable, formatUsd } from './reports/table.ts';

describe('metrics', () => {
  it('computes doc recall, undefined without gold', () => {
    expect(docRecall(['flows', 'limits', 'error-codes'], ['flows', 'error-codes', 'scheduling'])).toBeCloseTo(2 / 3);
    expect(docRecall([], ['flows'])).toBeUndefined();
  });

  it('takes medians, deviations and spreads', () => {
    expect([median([]), median([3, 1, 2]), median([4, 1, 3, 2])]).toEqual([0, 2, 2.5]);
    expect(stdev([1, 3])).toBe(1);
    expect(spreadOf([0.5, 0.75, 1])).toEqual({ min: 0.5, max: 1, mean: 0.75, stdev: 0.204 });
    expect(round3(2 / 3)).toBe(0.667);
  });

  it('never counts an unknown cost as 0', () => {
    expect(totalCost([0.5, 0.25])).toBe(0.75);
    expect(totalCost([0.5, null])).toBeNull();
  });
});

describe('formatTable', () => {
  it('right-aligns numeric columns and prints missing values as "-"', () => {
    expect(formatTable(['kind', 'recall', '$/q'], [['multi_hop', 0.95, formatUsd(0.0123)], ['unanswerable', null, formatUsd(null)]])).toBe(
      ['kind          recall  $/q', '------------  ------  -------', 'multi_hop       0.95  $0.0123', 'unanswerable       -  -', ''].join('\n'),
    );
    expect(formatUsd(0.000208)).toBe('$0.00021');
  });
});
