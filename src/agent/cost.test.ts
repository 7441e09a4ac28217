import { describe, expect, it } from 'vitest';
import { costOf } from './cost.ts';

describe('costOf', () => {
  it('prices known counts, is null when a priced count or the price is unknown, and 0 for a free side', () => {
    expect(costOf({ inputTokens: 2000, outputTokens: 500 }, { input: 0.25, output: 2 })).toBe(0.0015);
    expect(costOf({ inputTokens: undefined, outputTokens: 500 }, { input: 0.25, output: 2 })).toBeNull();
    expect(costOf({ inputTokens: 2000, outputTokens: 500 }, null)).toBeNull();
    expect(costOf({ inputTokens: undefined, outputTokens: undefined }, { input: 0, output: 0 })).toBe(0);
  });
});
