import { describe, expect, it } from 'vitest';
import { SNIPPET_MAX_LENGTH, cutAround, makeSnippet, pathUnder, snippetOf, withLazySnippet } from './snippet.ts';
import { headingText } from './snippet-units.ts';
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

describe('snippetOf: the best unit of a chunk', () => {
  const table = [
    'Every error has a code.',
    '',
    '| Code | Meaning |',
    '|:-----|--------:|',
    '| E100 | the broker is unavailable |',
    '| E200 | the payload is too large |',
    '| E201 | the payload is malformed |',
    '| E300 | the lease expired |',
  ].join('\n');

  it('shows a table row under its header row, with the rows that match as well, never the delimiter row', () => {
    expect(snippetOf({ text: table, headingPath: ['Errors'] }, ['e200'], exact)).toEqual({ text: '| Code | Meaning |\n| E200 | the payload is too large |' });
    expect(makeSnippet(table, ['payload'], exact)).toBe('| Code | Meaning |\n| E200 | the payload is too large |\n| E201 | the payload is malformed |');
    // A query the table header answers shows the header with the first row.
    expect(makeSnippet(`Intro.\n\n${table}`, ['meaning'], exact)).toBe('| Code | Meaning |\n| E100 | the broker is unavailable |');
    // Nothing matches: the first unit, not the table's first row.
    expect(makeSnippet(table, ['zebra'], exact)).toBe('Every error has a code.');
  });

  it('prefers the unit holding more distinct terms over one repeating a single term, and picks list items apart', () => {
    const list = '- `replace` (default) - overwrites the job; replace replace.\n- `unsafe_dedupe` - keeps the locked job and does not create a new one.\n- `preserve_run_at` - keeps run_at.';
    expect(makeSnippet(list, ['unsafe', 'dedupe', 'locked'], exact)).toBe('- `unsafe_dedupe` - keeps the locked job and does not create a new one.');
    expect(makeSnippet(list, ['replace', 'locked', 'new'], exact)).toBe('- `unsafe_dedupe` - keeps the locked job and does not create a new one.');
  });

  it('names the heading of the chunk text the unit sits under, with the heading line and what it introduces', () => {
    const chunk = { text: 'Aborts the job.\n\n### `helpers.addJob()`\n\nSee [`addJob`](/library/add-job.md).\n\n### `helpers.addJobs()`\n\nAdds many jobs.', headingPath: ['Tasks', 'helpers', 'helpers.abortSignal'] };
    expect(snippetOf(chunk, ['addjobs'], exact)).toEqual({ text: '### `helpers.addJobs()`\nAdds many jobs.', headingPath: ['Tasks', 'helpers', 'helpers.addJobs()'] });
    expect(snippetOf(chunk, ['abort'], DEFAULT_TOKENIZER)).toEqual({ text: 'Aborts the job.' });
    // A code line is a unit of its own; a heading inside a code block is none.
    const code = { text: 'Run it:\n\n```sh\n# install first\nnpm install graphile-worker\n```', headingPath: ['Install'] };
    expect(snippetOf(code, ['npm'], exact)).toEqual({ text: 'npm install graphile-worker' });
  });
});

describe('pathUnder and headingText', () => {
  it('replaces the entries from the heading\'s depth on, and is undefined for the chunk\'s own path', () => {
    expect(pathUnder(['Guide', 'Options', 'retry'], { depth: 3, text: 'backoff' })).toEqual(['Guide', 'Options', 'backoff']);
    expect(pathUnder(['Guide', 'Options'], { depth: 3, text: 'backoff' })).toEqual(['Guide', 'Options', 'backoff']);
    expect(pathUnder(['Guide', 'Options', 'retry'], { depth: 2, text: 'Limits' })).toEqual(['Guide', 'Limits']);
    expect(pathUnder(['Guide', 'Options', 'retry'], { depth: 3, text: 'retry' })).toBeUndefined();
  });

  it('reads a heading line as headings are named: no id, link syntax, tags, backticks or emphasis; `_` in words kept', () => {
    expect(headingText('`helpers.addJob()` {#add-job}')).toBe('helpers.addJob()');
    expect(headingText('**max_payload_kb** in [limits](limits.md) <Badge>3.x</Badge>')).toBe('max_payload_kb in limits 3.x');
  });
});
