import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_IDENTIFIER_KEYS, MAX_QUERY_TERMS, buildSearchQuery, queryTerms, quoteTerm } from './query.ts';
import { DEFAULT_TOKENIZER } from '../analysis/tokenize.ts';

describe('queryTerms', () => {
  it('drops stopwords and expands identifiers', () => {
    expect(queryTerms('What is max_payload_kb?', DEFAULT_TOKENIZER)).toEqual(['max', 'payload', 'kb', 'maxpayloadkb']);
    expect(queryTerms('[worker] lease_seconds', DEFAULT_TOKENIZER)).toEqual(['worker', 'lease', 'seconds', 'leaseseconds']);
  });

  it('keeps stopwords when nothing else is left', () => {
    expect(queryTerms('What is it?', DEFAULT_TOKENIZER)).toEqual(['what', 'is', 'it']);
  });

  it('dedupes and caps the number of terms', () => {
    expect(queryTerms('Retry retry RETRY', DEFAULT_TOKENIZER)).toEqual(['retry']);
    const many = Array.from({ length: 100 }, (_, n) => `word${n}x`).join(' ');
    const terms = queryTerms(many, { porter: true, identifiers: false });
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(terms[63]).toBe('word63x');
  });
});

describe('buildSearchQuery', () => {
  it('quotes every term and joins them with OR', () => {
    expect(buildSearchQuery('retry "quoted" NOT', DEFAULT_TOKENIZER)).toEqual({
      terms: ['retry', 'quoted'],
      match: '"retry" OR "quoted"',
      identifiers: [],
    });
    expect(buildSearchQuery('NEAR(a b) OR title:x*', DEFAULT_TOKENIZER)?.match).toBe('"near" OR "b" OR "title" OR "x" OR "titlex"');
  });

  it('looks the keys of the identifiers the query names up among definitions', () => {
    expect(buildSearchQuery('ORB-1202 and --schema', DEFAULT_TOKENIZER)).toEqual({
      terms: ['orb', '1202', 'orb1202', 'schema'],
      match: '"orb" OR "1202" OR "orb1202" OR "schema"',
      identifiers: [
        { name: 'ORB-1202', spellings: ['orb-1202'], keys: ['orb1202'] },
        { name: 'schema', spellings: ['--schema'], keys: ['schema'] },
      ],
      definitions: '"orb1202" OR "schema"',
    });
  });

  it('looks up no identifier when identifier expansions are off', () => {
    expect(buildSearchQuery('ORB-1202', { porter: true, identifiers: false })).toEqual({
      terms: ['orb', '1202'],
      match: '"orb" OR "1202"',
      identifiers: [],
    });
  });

  it('caps the identifier keys, whole identifiers only', () => {
    const many = Array.from({ length: 20 }, (_, n) => `key_${n}`).join(' ');
    const built = buildSearchQuery(many, DEFAULT_TOKENIZER)!;
    expect(built.identifiers.map((identifier) => identifier.name)).toEqual(
      Array.from({ length: MAX_IDENTIFIER_KEYS }, (_, n) => `key_${n}`),
    );
    const dotted = buildSearchQuery(Array.from({ length: 9 }, (_, n) => `ns.key_${n}`).join(' '), DEFAULT_TOKENIZER)!;
    expect(dotted.identifiers[0]).toEqual({ name: 'ns.key_0', spellings: ['ns.key_0', 'key_0'], keys: ['nskey0', 'key0'] });
    expect(dotted.identifiers).toHaveLength(MAX_IDENTIFIER_KEYS / 2);
  });

  it('returns undefined when no searchable term is left', () => {
    expect(buildSearchQuery('🦓 !! ()', DEFAULT_TOKENIZER)).toBeUndefined();
    expect(buildSearchQuery('', DEFAULT_TOKENIZER)).toBeUndefined();
  });

  it('never lets a quote or operator out of its string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (query) => {
        const built = buildSearchQuery(query, DEFAULT_TOKENIZER);
        if (built === undefined) return;
        for (const part of built.match.split(' OR ')) expect(part).toMatch(/^"[^"]+"$/);
        for (const part of built.definitions?.split(' OR ') ?? []) expect(part).toMatch(/^"[\p{L}\p{N}\p{M}]+"$/u);
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});

describe('quoteTerm', () => {
  it('doubles inner quotes', () => {
    expect(quoteTerm('a"b')).toBe('"a""b"');
  });
});
