import { describe, expect, it } from 'vitest';
import { costOf, webSearchCost } from './cost.ts';

describe('costOf', () => {
  it('prices known counts, is null when a priced count or the price is unknown, and 0 for a free side', () => {
    expect(costOf({ inputTokens: 2000, outputTokens: 500 }, { input: 0.25, output: 2 })).toBe(0.0015);
    expect(costOf({ inputTokens: undefined, outputTokens: 500 }, { input: 0.25, output: 2 })).toBeNull();
    expect(costOf({ inputTokens: 2000, outputTokens: 500 }, null)).toBeNull();
    expect(costOf({ inputTokens: undefined, outputTokens: undefined }, { input: 0, output: 0 })).toBe(0);
  });
});

describe('webSearchCost', () => {
  it('charges the per-search fee times the searches, 0 without a search', () => {
    expect(webSearchCost(3, { input: 1, output: 5, webSearch: 0.01 })).toBe(0.03);
    expect(webSearchCost(0, { input: 1, output: 5 })).toBe(0);
    expect(webSearchCost(0, null)).toBe(0);
  });

  it('is null, never 0, when a search was made and the fee is unknown', () => {
    expect(webSearchCost(1, { input: 0.25, output: 2 })).toBeNull();
    expect(webSearchCost(2, undefined)).toBeNull();
  });
});
