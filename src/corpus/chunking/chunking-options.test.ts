import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { resolveChunkingOptions } from './chunking-options.ts';

describe('resolveChunkingOptions', () => {
  it('fills in the defaults; headingSplitChars follows maxChunkChars', () => {
    expect(resolveChunkingOptions()).toEqual({ maxChunkChars: 1800, minChunkChars: 20, splitDepth: 3, headingSplitChars: 1200 });
    expect(resolveChunkingOptions({ maxChunkChars: 900 })).toEqual({ maxChunkChars: 900, minChunkChars: 20, splitDepth: 3, headingSplitChars: 600 });
    expect(resolveChunkingOptions({ minChunkChars: 0, splitDepth: 6, headingSplitChars: 1800 })).toEqual({
      maxChunkChars: 1800, minChunkChars: 0, splitDepth: 6, headingSplitChars: 1800,
    });
  });

  it.each([
    [{ maxChunkChars: 0 }, 'Atlas: maxChunkChars must be a positive integer, got 0. Pass e.g. { maxChunkChars: 1800 }.'],
    [{ maxChunkChars: 1.5 }, 'Atlas: maxChunkChars must be a positive integer, got 1.5. Pass e.g. { maxChunkChars: 1800 }.'],
    [{ minChunkChars: -1 }, 'Atlas: minChunkChars must be an integer >= 0, got -1. Pass e.g. { minChunkChars: 20 }.'],
    [{ splitDepth: 1 }, 'Atlas: splitDepth must be an integer from 2 to 6, got 1. Pass e.g. { splitDepth: 3 }.'],
    [{ headingSplitChars: 2000 }, 'Atlas: headingSplitChars must be an integer from 1 to 1800, got 2000. Pass e.g. { headingSplitChars: 1200 }.'],
    [{ minChunkChars: 100, maxChunkChars: 100 },
      'Atlas: minChunkChars must be smaller than maxChunkChars, got minChunkChars 100 and maxChunkChars 100. Pass e.g. { minChunkChars: 20, maxChunkChars: 1800 }.'],
  ])('rejects %j', (options, message) => {
    const call = () => resolveChunkingOptions(options);
    expect(call).toThrow(AtlasError);
    expect(call).toThrow(message);
  });
});
