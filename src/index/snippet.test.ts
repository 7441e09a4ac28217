import { describe, expect, it } from 'vitest';
import { SNIPPET_MAX_LENGTH, cutAround, makeSnippet, withLazySnippet } from './snippet.ts';
import { withScore } from './vectors/vector-fusion.ts';
import { DEFAULT_TOKENIZER } from './analysis/tokenize.ts';

const exact = { porter: false, identifiers: true };

describe('makeSnippet', () => {
  it('picks the paragraph with the most occurrences, the first on a tie', () => {
    const text = 'Alpha once.\n\nBeta beta and alpha.\n\nAlpha alpha alpha.\n\nAlpha alpha alpha again.';
    expect(makeSnippet(text, ['alpha'], exact)).toBe('Alpha alpha alpha.');
    expect(makeSnippet(text, ['alpha', 'beta'], exact)).toBe('Beta beta and alpha.');
  });

  it('matches identifiers through their expansions', () => {
    expect(makeSnippet('Intro.\n\nSet max_payload_kb to 512.', ['maxpayloadkb'], exact)).toBe('Set max_payload_kb to 512.');
    expect(makeSnippet('Intro.\n\nReturns PayloadTooLarge.', ['payload', 'large'], exact)).toBe('Returns PayloadTooLarge.');
  });

  it('finds a term whose letters the text holds only once lower-cased as a whole (final sigma inside a CamelCase run)', () => {
    // splitCamelCase gives ΟΔΟΣ -> 'οδος' (final sigma); the run lower-cased whole has 'οδοσkentro'.
    expect(makeSnippet('Intro.\n\nSee ΟΔΟΣKentro here.', ['οδος'], exact)).toBe('See ΟΔΟΣKentro here.');
    expect(makeSnippet('Intro.\n\nSet MAX_PAYLOAD_KB to 512.', ['maxpayloadkb'], exact)).toBe('Set MAX_PAYLOAD_KB to 512.');
  });

  it('compares stems when the index stems', () => {
    const text = 'Nothing here.\n\nJobs are retried twice.';
    expect(makeSnippet(text, ['retry'], DEFAULT_TOKENIZER)).toBe('Jobs are retried twice.');
    expect(makeSnippet(text, ['retry'], exact)).toBe('Nothing here.');
  });

  it('falls back to the first non-empty paragraph and collapses whitespace', () => {
    expect(makeSnippet('\n\n  First\t\tparagraph\n here.  \n\nSecond.', ['zebra'], exact)).toBe('First paragraph here.');
    expect(makeSnippet('', ['zebra'], exact)).toBe('');
  });

  it('stays within the maximum length', () => {
    const snippet = makeSnippet(`zebra ${'word '.repeat(200)}`, ['zebra'], exact);
    expect(snippet).toBe(`zebra ${'word '.repeat(58).trimEnd()}…`);
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
  });
});

describe('cutAround', () => {
  it('returns short text unchanged', () => {
    expect(cutAround('one two three', 0, 13)).toBe('one two three');
  });

  it('cuts at a word boundary', () => {
    expect(cutAround('one two three', 0, 8)).toBe('one two…');
    expect(cutAround('one two three', 0, 9)).toBe('one two…');
  });

  it('starts shortly before a focus that lies past the cut', () => {
    const text = `${'a '.repeat(200)}target ${'b '.repeat(200)}`;
    const snippet = cutAround(text, 400, 100);
    expect(snippet.startsWith('…a a')).toBe(true);
    expect(snippet).toContain('target');
    expect(snippet.endsWith('b…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(100);
  });

  it('cuts one huge word hard without splitting a surrogate pair', () => {
    expect(cutAround('🦓'.repeat(10), 0, 6)).toBe('🦓🦓…');
    expect(cutAround('x'.repeat(10), 0, 6)).toBe('xxxxx…');
  });
});

describe('withLazySnippet', () => {
  const text = 'Intro.\n\nJobs are retried twice.';
  const hitOf = (chunkId: string) =>
    withLazySnippet(
      { chunkId, docId: 'a', title: 'A', heading: '', headingPath: [], text, appliesTo: 'all', ord: 0, labels: {}, sourcePath: 'a.md', startLine: 1, endLine: 3, score: 2 },
      ['retri'],
      DEFAULT_TOKENIZER,
    );

  it('makes the snippet from the hit\'s text and the query\'s terms, as an enumerable property', () => {
    const hit = hitOf('a#0');
    expect(hit.snippet).toBe('Jobs are retried twice.');
    expect(Object.keys(hit)).toContain('snippet');
    expect(JSON.parse(JSON.stringify(hit)).snippet).toBe('Jobs are retried twice.');
    expect({ ...hit }.snippet).toBe('Jobs are retried twice.');
    expect(withScore(hit, 0.5)).toMatchObject({ score: 0.5, snippet: 'Jobs are retried twice.' });
  });

  it('gives every hit the same getter, so hits share their hidden class', () => {
    const getter = (hit: object) => Object.getOwnPropertyDescriptor(hit, 'snippet')?.get;
    expect(getter(hitOf('a#0'))).toBeTypeOf('function');
    expect(getter(hitOf('a#0'))).toBe(getter(hitOf('b#1')));
  });
});
