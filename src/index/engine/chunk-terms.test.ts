import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { createTermDictionary } from './chunk-terms.ts';
import { createFts5Tokenizer } from '../analysis/fts5-tokens.ts';

const porter = createFts5Tokenizer({ porter: true });

describe('createTermDictionary', () => {
  it('numbers each term once, with its counts per column and the chunk length', () => {
    const dictionary = createTermDictionary('test');
    const first = dictionary.chunkTerms(['Retries', 'Backoff', '', 'Retries back off. Retrying', 'back'], porter);
    expect([...first.ids]).toEqual([0, 1, 2, 3]);
    expect([...first.ids].map((id) => dictionary.term(id))).toEqual(['retri', 'backoff', 'back', 'off']);
    // Title, heading, inner headings, text, identifier expansions per term.
    expect([...first.counts]).toEqual([1, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0]);
    expect(first.length).toBe(7);
    expect(dictionary.takeNew()).toEqual({ source: 'test', first: 0, terms: ['retri', 'backoff', 'back', 'off'] });
    const second = dictionary.chunkTerms(['', '', '', 'Jobs back off', ''], porter);
    expect([...second.ids]).toEqual([4, 2, 3]);
    expect([...second.counts]).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    expect(dictionary.takeNew()).toEqual({ source: 'test', first: 4, terms: ['job'] });
    expect(dictionary.takeNew()).toEqual({ source: 'test', first: 5, terms: [] });
    expect(dictionary.chunkTerms(['', '', '', '', ''], porter)).toEqual({ ids: new Uint32Array(0), counts: new Uint32Array(0), length: 0 });
  });

  it('numbers the tokens of each tokenizer it is given, and more distinct terms than its first arrays hold', () => {
    const dictionary = createTermDictionary('test');
    const plain = createFts5Tokenizer({ porter: false });
    expect([...dictionary.chunkTerms(['', '', '', 'jobs', ''], porter).ids].map((id) => dictionary.term(id))).toEqual(['job']);
    expect([...dictionary.chunkTerms(['', '', '', 'jobs', ''], plain).ids].map((id) => dictionary.term(id))).toEqual(['jobs']);
    const words = Array.from({ length: 3000 }, (_, n) => `w${n}`);
    const many = dictionary.chunkTerms(['', '', '', words.join(' '), words.slice(0, 10).join(' ')], plain);
    expect(many.ids.length).toBe(3000);
    expect(dictionary.term(many.ids[2999]!)).toBe('w2999');
    expect([...many.counts.subarray(0, 5)]).toEqual([0, 0, 0, 1, 1]);
    expect([...many.counts.subarray(2999 * 5)]).toEqual([0, 0, 0, 1, 0]);
    expect(many.length).toBe(3010);
  });

  it('names the dictionary and the number it lacks', () => {
    const dictionary = createTermDictionary('worker-7');
    expect(() => dictionary.term(3)).toThrow(AtlasError);
    expect(() => dictionary.term(3)).toThrow("Atlas: term dictionary worker-7 has no term number 3 (it numbered 0). Derive the chunk's terms with this dictionary.");
  });
});
