import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_TERMS, buildMatchExpression, queryTerms, quoteTerm } from './query.ts';
import { DEFAULT_TOKENIZER } from './tokenize.ts';

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

describe('buildMatchExpression', () => {
  it('quotes every term and joins them with OR', () => {
    expect(buildMatchExpression('ORB-1202 "quoted" NOT', DEFAULT_TOKENIZER)).toBe('"orb" OR "1202" OR "orb1202" OR "quoted"');
    expect(buildMatchExpression('NEAR(a b) OR title:x*', DEFAULT_TOKENIZER)).toBe('"near" OR "b" OR "title" OR "x" OR "titlex"');
  });

  it('returns undefined when no searchable term is left', () => {
    expect(buildMatchExpression('🦓 !! ()', DEFAULT_TOKENIZER)).toBeUndefined();
    expect(buildMatchExpression('', DEFAULT_TOKENIZER)).toBeUndefined();
  });

  it('never lets a quote or operator out of its string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (query) => {
        const expression = buildMatchExpression(query, DEFAULT_TOKENIZER);
        if (expression === undefined) return;
        for (const part of expression.split(' OR ')) expect(part).toMatch(/^"[^"]+"$/);
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
