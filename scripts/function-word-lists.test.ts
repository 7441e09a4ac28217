import { describe, expect, it } from 'vitest';
import { FUNCTION_WORD_LISTS } from '../src/text/function-word-data.ts';
import { functionWordLists } from './function-word-lists.ts';

describe('src/text/function-word-data.ts', () => {
  it('holds the lists of the stopword package installed (else run: npx tsx scripts/function-word-lists.ts)', () => {
    expect(FUNCTION_WORD_LISTS).toEqual(functionWordLists());
    expect(Object.keys(FUNCTION_WORD_LISTS)).toHaveLength(55);
  });
});
