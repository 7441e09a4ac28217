import { describe, expect, it } from 'vitest';
import { addUsage, NO_USAGE } from './usage.ts';

describe('addUsage', () => {
  it('adds counts', () => {
    expect(addUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 3 })).toEqual({ inputTokens: 15, outputTokens: 5 });
  });

  it('keeps a count undefined only when neither side reported it', () => {
    expect(addUsage({ inputTokens: 10, outputTokens: undefined }, { inputTokens: undefined, outputTokens: undefined })).toEqual({
      inputTokens: 10,
      outputTokens: undefined,
    });
    expect(addUsage(NO_USAGE, { inputTokens: undefined, outputTokens: 4 })).toEqual({ inputTokens: undefined, outputTokens: 4 });
  });

  it('accepts the AI SDK usage object and keeps only the two counts', () => {
    const sdkUsage = {
      inputTokens: 7,
      inputTokenDetails: { noCacheTokens: 7, cacheReadTokens: undefined, cacheWriteTokens: undefined },
      outputTokens: 1,
      outputTokenDetails: { textTokens: 1, reasoningTokens: undefined },
      totalTokens: 8,
    };
    expect(addUsage(NO_USAGE, sdkUsage)).toEqual({ inputTokens: 7, outputTokens: 1 });
  });
});
