import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { SearchSession, type SearchSessionOptions } from './search-session.ts';

const index = createMemoryIndex([
  makeDoc('guide', 'all', [
    ['Guide', 'lease lease lease basics'],
    ['More', 'lease lease details'],
    ['Even more', 'lease tips'],
  ]),
  makeDoc('old', '2.x', [['Old', 'lease timeout for 2.x']]),
  makeDoc('new', '3.x', [['New', 'lease seconds for 3.x']]),
]);

describe('SearchSession', () => {
  it('shows only passages not shown before and says how many were skipped', async () => {
    const session = new SearchSession({ index, k: 2, weakScore: 0 });
    const first = await session.searchDocs({ query: 'lease' });
    const second = await session.searchDocs({ query: 'lease basics details tips' });
    expect(first.ok && first.value.results.map((result: { chunk_id: string }) => result.chunk_id)).toEqual(['guide#0', 'guide#1']);
    expect(second.ok && second.value).toMatchObject({ note: '2 already-seen passages skipped: guide#0 "Guide", guide#1 "More" (read_section re-reads one)' });
    expect(session.steps.map((step) => [step.chunkIds, step.newDocIds, step.skippedSeen])).toEqual([
      [['guide#0', 'guide#1'], ['guide'], 0],
      [['guide#2', 'new#0'], ['new'], 2],
    ]);
    expect(session.rankedDocIds()).toEqual(['guide', 'new']);
  });

  it('says a query matched no passage at all apart from a page with nothing new', async () => {
    const session = new SearchSession({ index, k: 5, weakScore: 0 });
    const nothing = await session.searchDocs({ query: 'kubernetes cluster' });
    expect(nothing).toEqual({ ok: true, value: { results: [], note: 'no passage matches the query: search with other words, or answer that the docs do not say' } });
    await session.searchDocs({ query: 'lease' });
    const further = await session.searchDocs({ query: 'lease', page: 2 });
    expect(further.ok && further.value.note).toBe('no new passages: search for something else or answer');
  });

  it('refuses a query with the same words and version, and counts it toward the budget', async () => {
    const session = new SearchSession({ index, maxSearches: 3, weakScore: 0 });
    await session.searchDocs({ query: 'Lease timeout' });
    const again = await session.searchDocs({ query: 'timeout  lease' });
    const otherVersion = await session.searchDocs({ query: 'timeout lease', version: '3.x' });
    expect(again).toEqual({ ok: true, value: { results: [], note: 'duplicate query: search for what is still missing, or ask for page 2 of it.' } });
    expect(otherVersion.ok && otherVersion.value.note).toBe(
      '4 already-seen passages skipped: guide#0 "Guide", guide#1 "More", guide#2 "Even more", new#0 "New" (read_section re-reads one); no new passages: search for something else or answer',
    );
    expect(session.steps.map((step) => step.note)).toEqual([undefined, 'duplicate-query', 'no-new-results']);
    expect(session.searchesUsed).toBe(3);
    expect(await session.searchDocs({ query: 'anything else' })).toEqual({
      ok: false,
      error: 'search budget exhausted (3 searches used): answer now from the passages you have.',
    });
  });

  it('shows the next results of a query on its next page, skipping what was seen, and refuses a page twice', async () => {
    const session = new SearchSession({ index, k: 2, weakScore: 0 });
    const ids = (outcome: Awaited<ReturnType<SearchSession['searchDocs']>>) =>
      outcome.ok ? outcome.value.results.map((result: { chunk_id: string }) => result.chunk_id) : outcome.error;
    expect(ids(await session.searchDocs({ query: 'lease' }))).toEqual(['guide#0', 'guide#1']);
    expect(ids(await session.searchDocs({ query: 'lease', page: 2 }))).toEqual(['guide#2', 'new#0']);
    const again = await session.searchDocs({ query: 'Lease', page: 2 });
    expect(again).toEqual({ ok: true, value: { results: [], note: 'duplicate query: search for what is still missing, or ask for page 3 of it.' } });
    expect(ids(await session.searchDocs({ query: 'lease', page: 3 }))).toEqual(['old#0']);
    expect(session.steps.map((step) => [step.page, step.note, step.skippedSeen])).toEqual([
      [undefined, undefined, 0],
      [2, undefined, 0],
      [2, 'duplicate-query', 0],
      [3, undefined, 0],
    ]);
  });

  it('starts a first-asked page past the ranks before it, and refuses a page that is not a whole number from 1', async () => {
    const session = new SearchSession({ index, k: 2, weakScore: 0 });
    const outcome = await session.searchDocs({ query: 'lease', page: 2 });
    expect(outcome.ok && outcome.value.results.map((result: { chunk_id: string }) => result.chunk_id)).toEqual(['guide#2', 'new#0']);
    expect(await session.searchDocs({ query: 'lease', page: 0 })).toEqual({
      ok: false,
      error: 'invalid page 0: page must be a whole number from 1 (1 = the best results, 2 = the next 2).',
    });
    expect(session.searchesUsed).toBe(1);
  });

  it('flags weak matches under the calibrated score', async () => {
    const session = new SearchSession({ index, weakScore: 5 });
    const outcome = await session.searchDocs({ query: 'tips' });
    expect(outcome.ok && outcome.value.note).toBe('weak matches: rewrite the query or conclude');
    expect(session.steps[0]?.note).toBe('weak-matches');
  });

  it('treats chunks outside the filter exactly like unknown ids when reading', async () => {
    const session = new SearchSession({ index, filter: { version: '3.x' } });
    const notFound = (id: string) => ({ ok: false, error: `chunk not found: ${id}. Use a chunk_id returned by search_docs.` });
    expect(await session.readSection({ chunk_id: 'old#0' })).toEqual(notFound('old#0'));
    expect(await session.readSection({ chunk_id: 'missing#9' })).toEqual(notFound('missing#9'));
    expect(await session.readNeighbors({ chunk_id: 'old#0' })).toEqual(notFound('old#0'));
    const neighbors = await session.readNeighbors({ chunk_id: 'guide#1' });
    expect(neighbors.ok && neighbors.value.chunks.map((chunk: { chunk_id: string }) => chunk.chunk_id)).toEqual(['guide#0', 'guide#2']);
    expect(session.reads.map((read) => [read.tool, read.found])).toEqual([
      ['read_section', false],
      ['read_section', false],
      ['read_neighbors', false],
      ['read_neighbors', true],
    ]);
  });

  it('stops showing passages at the chunk budget', async () => {
    const session = new SearchSession({ index, maxChunks: 3, weakScore: 0 });
    await session.searchDocs({ query: 'lease' });
    expect(session.evidence.size).toBe(3);
    expect(session.chunkBudgetExhausted).toBe(true);
    expect(await session.searchDocs({ query: 'seconds' })).toEqual({
      ok: false,
      error: 'passage budget exhausted: answer now from the passages you have.',
    });
  });
});

/** A markdown table line of exactly 64 characters with its newline (63 without). */
const tableLine = (cells: string[]) => `${`| ${cells.join(' | ')}`.padEnd(61)} |`;
/** A 10 KB error table: header, separator and 158 rows, 160 lines of 64 characters, 10,239 in all. */
const tableText = [
  tableLine(['Code', 'Name', 'Meaning']),
  tableLine(['---', '---', '---']),
  ...Array.from({ length: 158 }, (_, row) => tableLine([`ORB-${1000 + row}`, `Error ${row}`, `raised when step ${row} fails`])),
].join('\n');
const longIndex = createMemoryIndex([
  makeDoc('codes', 'all', [
    ['Error codes', 'Every error has a code.'],
    ['Table', tableText],
    ['Retries', 'Failed steps are retried.'],
  ]),
  makeDoc('codes-2x', '2.x', [['Old codes', tableText]]),
]);
/** 200 tokens = 800 characters: each page holds the 12 whole lines (768 characters) that fit. */
const pagedSession = (options: Partial<SearchSessionOptions> = {}) => new SearchSession({ index: longIndex, readTokens: 200, weakScore: 0, ...options });
const pageOffsets = Array.from({ length: 14 }, (_, page) => page * 768);

describe('SearchSession reads in pages', () => {
  it('pages a 10 KB table to its last row with exact offsets, and says how to read on', async () => {
    expect(tableText.length).toBe(10_239);
    const session = pagedSession();
    const first = await session.readSection({ chunk_id: 'codes#1' });
    expect(first).toEqual({
      ok: true,
      value: {
        chunk_id: 'codes#1',
        doc_id: 'codes',
        title: 'Error codes',
        heading: 'Table',
        heading_path: 'Error codes > Table',
        applies_to: 'all',
        text: tableText.slice(0, 768),
        offset: 0,
        next_offset: 768,
        total_chars: 10_239,
        remaining_chars: 9471,
        remaining_tokens: 2368,
        complete: false,
        note: '9471 more characters (about 2368 tokens): call read_section with chunk_id "codes#1" and offset 768 to read on.',
        prev_chunk_id: 'codes#0',
        next_chunk_id: 'codes#2',
      },
    });
    const values = [first.ok ? first.value : {}];
    for (let next = values[0]?.next_offset; next !== null; next = values.at(-1)?.next_offset) {
      const page = await session.readSection({ chunk_id: 'codes#1', offset: next });
      values.push(page.ok ? page.value : {});
    }
    expect(values.map((value) => value.offset)).toEqual(pageOffsets);
    expect(values.map((value) => value.text).join('')).toBe(tableText);
    expect(values.at(-1)).toMatchObject({ offset: 9984, next_offset: null, remaining_chars: 0, remaining_tokens: 0, complete: true });
    expect(values.at(-1)?.text.endsWith(tableLine(['ORB-1157', 'Error 157', 'raised when step 157 fails']))).toBe(true);
    expect(values.at(-1)).not.toHaveProperty('note');
    expect(session.reads.map((read) => [read.offset, read.nextOffset, read.newChunkIds])).toEqual(
      pageOffsets.map((offset, page) => [offset, page === 13 ? null : offset + 768, page === 0 ? ['codes#1'] : []]),
    );
    // The evidence set holds exactly the pages shown, in order.
    expect(session.evidence.get('codes#1')?.shown).toEqual(pageOffsets.map((offset) => tableText.slice(offset, offset + 768)));
  });

  it('takes its page budget from readTokens, and refuses a budget that is not a positive whole number', async () => {
    const outcome = await pagedSession({ readTokens: 100 }).readSection({ chunk_id: 'codes#1' });
    expect(outcome.ok && [outcome.value.text.length, outcome.value.next_offset]).toEqual([384, 384]);
    const whole = await pagedSession({ readTokens: 3000 }).readSection({ chunk_id: 'codes#1' });
    expect(whole.ok && [whole.value.text, whole.value.complete, whole.value.next_offset]).toEqual([tableText, true, null]);
    expect(() => new SearchSession({ index: longIndex, readTokens: 0 })).toThrow(
      'Atlas: SearchSession readTokens must be a positive whole number of tokens, got 0. Pass e.g. readTokens: 800.',
    );
    expect(() => new SearchSession({ index: longIndex, readTokens: 1.5 })).toThrow('got 1.5');
  });

  it('enforces the filter on every page: a chunk outside it is "not found" at any offset', async () => {
    const session = pagedSession({ filter: { version: '3.x' } });
    const notFound = { ok: false, error: 'chunk not found: codes-2x#0. Use a chunk_id returned by search_docs.' };
    for (const offset of [undefined, 0, 768, 9984, 10_239, 99_999, -1]) {
      expect(await session.readSection({ chunk_id: 'codes-2x#0', ...(offset === undefined ? {} : { offset }) })).toEqual(notFound);
    }
    expect(session.evidence.size).toBe(0);
    expect(session.reads.every((read) => !read.found)).toBe(true);
  });

  it('answers an invalid offset with an error the model can read, and shows nothing', async () => {
    const session = pagedSession();
    const fix = 'use 0 for the start, or the next_offset of the page you read last.';
    expect(await session.readSection({ chunk_id: 'codes#1', offset: -1 })).toEqual({
      ok: false,
      error: `invalid offset -1 for "codes#1": an offset is a whole number of characters from 0; ${fix}`,
    });
    expect(await session.readSection({ chunk_id: 'codes#1', offset: 1.5 })).toEqual({
      ok: false,
      error: `invalid offset 1.5 for "codes#1": an offset is a whole number of characters from 0; ${fix}`,
    });
    expect(await session.readSection({ chunk_id: 'codes#1', offset: 10_239 })).toEqual({
      ok: false,
      error: `offset 10239 is past the end of "codes#1" (10239 characters, last offset 10238); ${fix}`,
    });
    expect(session.evidence.size).toBe(0);
    expect(session.reads.map((read) => [read.found, read.note])).toEqual([
      [true, 'invalid-offset'],
      [true, 'invalid-offset'],
      [true, 'invalid-offset'],
    ]);
  });

  it('points a cut page at the lines matching the query, or the last search, that were not shown yet', async () => {
    const session = pagedSession();
    const row150 = 64 * (2 + 150);
    const asked = await session.readSection({ chunk_id: 'codes#1', query: 'ORB-1150' });
    expect(asked.ok && asked.value.query_matches).toEqual([{ offset: row150, terms: ['orb', '1150'] }]);
    expect(asked.ok && asked.value.note).toBe(
      `9471 more characters (about 2368 tokens): call read_section with chunk_id "codes#1" and offset 768 to read on. The line matching "ORB-1150" best starts at offset ${row150}.`,
    );
    const two = await pagedSession().readSection({ chunk_id: 'codes#1', query: 'ORB-1151 or ORB-1150' });
    expect(two.ok && [two.value.query_matches, two.value.note.endsWith(`Lines matching "ORB-1151 or ORB-1150" start at offsets ${row150}, ${row150 + 64}.`)]).toEqual([
      [
        { offset: row150, terms: ['orb', '1150'] },
        { offset: row150 + 64, terms: ['orb', '1151'] },
      ],
      true,
    ]);
    await session.searchDocs({ query: 'what is ORB-1150' });
    const byLastSearch = await session.readSection({ chunk_id: 'codes#1', offset: 768 });
    expect(byLastSearch.ok && byLastSearch.value.query_matches).toEqual([{ offset: row150, terms: ['orb', '1150'] }]);
    // Once its page was shown, the row is no longer pointed at.
    const atRow = await session.readSection({ chunk_id: 'codes#1', offset: row150 });
    expect(atRow.ok && atRow.value.text.startsWith('| ORB-1150 |')).toBe(true);
    const after = await session.readSection({ chunk_id: 'codes#1', offset: 1536 });
    // Said, not left out: no line not shown yet matches any more.
    expect(after.ok && after.value.query_matches).toEqual([]);
    expect(after.ok && after.value.note).toBe(
      '7935 more characters (about 1984 tokens): call read_section with chunk_id "codes#1" and offset 2304 to read on. No line not shown yet matches "what is ORB-1150".',
    );
  });

  it('caps each neighbour and each full-text result by the same budget, saying how to read the rest', async () => {
    const cut = {
      text: tableText.slice(0, 768),
      next_offset: 768,
      total_chars: 10_239,
      remaining_chars: 9471,
      remaining_tokens: 2368,
      complete: false,
      note: '9471 more characters (about 2368 tokens): call read_section with chunk_id "codes#1" and offset 768 to read on.',
    };
    const session = pagedSession();
    const neighbors = await session.readNeighbors({ chunk_id: 'codes#0' });
    expect(neighbors.ok && neighbors.value).toEqual({
      chunks: [{ position: 'next', chunk_id: 'codes#1', doc_id: 'codes', title: 'Error codes', heading: 'Table', heading_path: 'Error codes > Table', applies_to: 'all', ...cut }],
      note: 'codes#0 is the first section of its page you can read: no previous section.',
    });
    expect(session.evidence.get('codes#1')?.shown).toEqual([tableText.slice(0, 768)]);
    const whole = await session.readNeighbors({ chunk_id: 'codes#1' });
    expect(whole.ok && whole.value.chunks.map((chunk: Record<string, unknown>) => [chunk.position, chunk.chunk_id, chunk.text, chunk.complete, chunk.note])).toEqual([
      ['previous', 'codes#0', 'Every error has a code.', true, undefined],
      ['next', 'codes#2', 'Failed steps are retried.', true, undefined],
    ]);
    expect(whole.ok && whole.value.note).toBeUndefined();
    const last = await session.readNeighbors({ chunk_id: 'codes#2' });
    expect(last.ok && [last.value.chunks.map((chunk: Record<string, unknown>) => chunk.position), last.value.note]).toEqual([
      ['previous'],
      'codes#2 is the last section of its page you can read: no next section.',
    ]);
    const fullText = await pagedSession({ filter: { version: '3.x' } }).searchDocs({ query: 'ORB-1150 codes' }, { fullText: true });
    expect(fullText.ok && fullText.value.results).toEqual([
      { chunk_id: 'codes#1', doc_id: 'codes', heading: 'Table', heading_path: 'Error codes > Table', applies_to: 'all', score: 320, ...cut },
      { chunk_id: 'codes#0', doc_id: 'codes', heading: 'Error codes', heading_path: 'Error codes', applies_to: 'all', score: 2, text: 'Every error has a code.', complete: true },
    ]);
  });

  it('shows the heading path beside the heading in search results, and a short passage whole', async () => {
    const outcome = await pagedSession().searchDocs({ query: 'retried' });
    expect(outcome.ok && outcome.value.results).toEqual([
      { chunk_id: 'codes#2', doc_id: 'codes', heading: 'Retries', heading_path: 'Error codes > Retries', applies_to: 'all', score: 1, text: 'Failed steps are retried.', complete: true },
    ]);
    const snippets = await pagedSession({ resultChars: 0 }).searchDocs({ query: 'retried' });
    expect(snippets.ok && snippets.value.results).toEqual([
      { chunk_id: 'codes#2', doc_id: 'codes', heading: 'Retries', heading_path: 'Error codes > Retries', applies_to: 'all', score: 1, snippet: 'Failed steps are retried.', total_chars: 25 },
    ]);
  });
});

describe('SearchSession: what the tools show around a passage', () => {
  const header = '| Code | Meaning |\n| --- | --- |';
  const tableIndex = createMemoryIndex([
    makeDoc('codes', 'all', [
      ['Codes', 'Every error has a code.'],
      ['Table', `${header}\n| E1 | broker down |\n| E2 | payload too large |`],
      ['Table', `${header}\n| E3 | lease lost |`],
      ['Retries', `Failed steps are retried with a backoff that doubles each time, up to the configured limit.${' More words.'.repeat(20)}`],
      ['Other table', `${header}\n| E9 | other |`],
    ]),
  ]);

  it('names every chunk of a table split over several, in order, and none for a table of its own', async () => {
    const session = new SearchSession({ index: tableIndex, weakScore: 0, resultChars: 0 });
    const outcome = await session.searchDocs({ query: 'E3 lease lost' });
    // codes#4 has the same header in another section, after a section that ends in prose: no part of it.
    expect(outcome.ok && outcome.value.results.map((result: Record<string, unknown>) => [result.chunk_id, result.snippet, result.table_parts])).toEqual([
      ['codes#2', '| Code | Meaning |\n| E3 | lease lost |', ['codes#1', 'codes#2']],
      ['codes#1', '| Code | Meaning |\n| E1 | broker down |\n| E2 | payload too large |', ['codes#1', 'codes#2']],
      ['codes#4', '| Code | Meaning |\n| E9 | other |', undefined],
    ]);
    const other = await session.readSection({ chunk_id: 'codes#4' });
    expect(other.ok && other.value).not.toHaveProperty('table_parts');
  });

  it('shows a short section with the first lines of its neighbours, or says it showed them before', async () => {
    const session = new SearchSession({ index: tableIndex, weakScore: 0, readTokens: 800 });
    const first = await session.readSection({ chunk_id: 'codes#0' });
    expect(first.ok && first.value.next_section).toEqual({
      chunk_id: 'codes#1',
      doc_id: 'codes',
      title: 'Codes',
      heading: 'Table',
      heading_path: 'Codes > Table',
      applies_to: 'all',
      text: `${header}\n| E1 | broker down |\n| E2 | payload too large |`,
      complete: true,
    });
    expect(first.ok && first.value).not.toHaveProperty('previous_section');
    const second = await session.readSection({ chunk_id: 'codes#2' });
    expect(second.ok && [second.value.previous_section, second.value.next_section?.text.slice(0, 40)]).toEqual([
      { chunk_id: 'codes#1', heading: 'Table', heading_path: 'Codes > Table', shown_before: true },
      'Failed steps are retried with a backoff ',
    ]);
    // A section of 200 characters or more comes alone.
    const long = await session.readSection({ chunk_id: 'codes#3' });
    expect(long.ok && [long.value.previous_section, long.value.next_section]).toEqual([undefined, undefined]);
  });

  it('adds no neighbour past the chunk budget', async () => {
    const session = new SearchSession({ index: tableIndex, weakScore: 0, maxChunks: 1 });
    const outcome = await session.readSection({ chunk_id: 'codes#0' });
    expect(outcome.ok && outcome.value).not.toHaveProperty('next_section');
    expect(session.evidence.size).toBe(1);
  });

  it('says where the query matches in a section shown whole, and that nothing does', async () => {
    const session = new SearchSession({ index: tableIndex, weakScore: 0 });
    const matched = await session.readSection({ chunk_id: 'codes#1', query: 'payload' });
    expect(matched.ok && [matched.value.query_matches, matched.value.note]).toEqual([[{ offset: 54, terms: ['payload'] }], undefined]);
    const none = await session.readSection({ chunk_id: 'codes#1', query: 'heartbeat' });
    expect(none.ok && none.value.query_matches).toEqual([]);
    const nothingToFind = await session.readSection({ chunk_id: 'codes#1', query: 'what is it' });
    expect(nothingToFind.ok && nothingToFind.value).not.toHaveProperty('query_matches');
  });

  it("names the neighbouring section that holds the query's words this one lacks", async () => {
    const json = createMemoryIndex([
      makeDoc('json', 'all', [
        ['json.dump()', 'Serialize obj as a JSON formatted stream to fp.'],
        ['json.dump()', 'If specified, default should be a function that gets called for objects that can not otherwise be serialized.'],
        ['json.dump()', 'Unlike pickle, JSON is not a framed protocol.'],
      ]),
    ]);
    const session = new SearchSession({ index: json, weakScore: 0 });
    const first = await session.readSection({ chunk_id: 'json#0', query: 'json.dump default function for objects' });
    expect(first.ok && first.value.neighbour_matches).toEqual({ chunk_id: 'json#1', position: 'next', terms: ['default', 'function', 'objects'] });
    const last = await session.readSection({ chunk_id: 'json#2', query: 'default function' });
    expect(last.ok && last.value.neighbour_matches).toEqual({ chunk_id: 'json#1', position: 'previous', terms: ['default', 'function'] });
    const held = await session.readSection({ chunk_id: 'json#1', query: 'default function' });
    expect(held.ok && held.value).not.toHaveProperty('neighbour_matches');
  });

  it('flags the passages of a search that cover too little of the query, whatever their score', async () => {
    const session = new SearchSession({ index: tableIndex, weakScore: 0 });
    const outcome = await session.searchDocs({ query: 'retried steps on kubernetes spot nodes' });
    // 5 chunks: "retried" and "steps" in 1 (each ln(1 + 5/2)), "kubernetes", "spot", "nodes" in none (each ln 6): 2.51 of 7.88.
    expect(outcome.ok && outcome.value.note).toBe("weak matches: these passages cover 32% of the query's words: rewrite the query or conclude");
    expect(session.steps[0]?.coverage).toBe(0.318);
    const off = new SearchSession({ index: tableIndex, weakScore: 0, weakCoverage: 0 });
    expect(((await off.searchDocs({ query: 'retried steps on kubernetes spot nodes' })) as { value: { note?: string } }).value.note).toBeUndefined();
  });
});
