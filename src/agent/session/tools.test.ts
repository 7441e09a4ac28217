import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { SearchSession } from './search-session.ts';
import { checkToolCall, executeToolCall, ignoredArgumentsNote } from './tools.ts';

const index = createMemoryIndex([makeDoc('notes', 'all', [['Notes', 'aaaa bbbb cccc dddd eeee.\n\nffff gggg hhhh iiii']])]);
const offsetRule =
  'offset: offset must be a whole number of characters from 0: use 0 for the start, or the next_offset of the page you read last';
const invalid = (issue: string) => ({
  ok: false,
  error: `invalid arguments for read_section: ${issue}. Send e.g. {"chunk_id": "flows#2"}.`,
});

describe('executeToolCall', () => {
  it('reads on from the offset the model passes', async () => {
    const session = new SearchSession({ index, readTokens: 10 });
    const first = await executeToolCall(session, 'read_section', { chunk_id: 'notes#0' });
    expect(first.ok && [first.value.text, first.value.next_offset]).toEqual(['aaaa bbbb cccc dddd eeee.\n\n', 27]);
    const second = await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 27 });
    expect(second.ok && [second.value.text, second.value.complete]).toEqual(['ffff gggg hhhh iiii', true]);
  });

  it('answers an offset that is negative, fractional or not a number with the rule and the fix', async () => {
    const session = new SearchSession({ index });
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: -5 })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 2.5 })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: '27' })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 46 })).toEqual({
      ok: false,
      error: 'offset 46 is past the end of "notes#0" (46 characters, last offset 45); use 0 for the start, or the next_offset of the page you read last.',
    });
  });

  it('passes the page of a search on, and answers a page that is not a whole number from 1 with the rule', async () => {
    const session = new SearchSession({ index, k: 1, weakScore: 0 });
    const first = await executeToolCall(session, 'search_docs', { query: 'aaaa', page: 1 });
    expect(first.ok && first.value.results.map((result: { chunk_id: string }) => result.chunk_id)).toEqual(['notes#0']);
    const second = await executeToolCall(session, 'search_docs', { query: 'aaaa', page: 2 });
    expect(second).toEqual({ ok: true, value: { results: [], note: 'no new passages: search for something else or answer' } });
    expect(await executeToolCall(session, 'search_docs', { query: 'aaaa', page: 0 })).toEqual({
      ok: false,
      error:
        'invalid arguments for search_docs: page: page must be a whole number from 1: use 1 for the best results, 2 for the next ones. Send e.g. {"query": "lease timeout"}.',
    });
    expect(session.steps.map((step) => step.page)).toEqual([undefined, 2]);
  });
});

describe('checkToolCall', () => {
  it('reads null as absent for every optional argument (OpenAI strict mode), and keeps null an error for a required one', () => {
    expect(checkToolCall('search_docs', { query: 'lease', version: null })).toEqual({ ok: true, toolName: 'search_docs', input: { query: 'lease' } });
    expect(checkToolCall('read_section', { chunk_id: 'notes#0', offset: null, query: null })).toEqual({
      ok: true,
      toolName: 'read_section',
      input: { chunk_id: 'notes#0' },
    });
    expect(checkToolCall('read_neighbors', { chunk_id: null })).toEqual({
      ok: false,
      error:
        'invalid arguments for read_neighbors: chunk_id: expected a string (A chunk_id returned by search_docs, e.g. "flows#3"), got null. Send e.g. {"chunk_id": "flows#2"}.',
    });
  });

  it('names each field at fault, what it takes and what came', () => {
    expect(checkToolCall('search_docs', { version: 3 })).toEqual({
      ok: false,
      error:
        'invalid arguments for search_docs: query: expected a string (Keywords or a question. Use exact identifiers (error codes, setting names) when you know them), got nothing (it is required); ' +
        'version: expected a string (Release line to restrict to, e.g. "3.x". Omit to search every version), got 3 (number). Send e.g. {"query": "lease timeout"}.',
    });
    expect(checkToolCall('search_docs', '{"query": "flo')).toEqual({
      ok: false,
      error: 'invalid arguments for search_docs: the arguments must be a JSON object, got text "{\\"query\\": \\"flo" (is it valid JSON?). Send e.g. {"query": "lease timeout"}.',
    });
    expect(checkToolCall('drop_table', {})).toEqual({ ok: false, error: 'unknown tool "drop_table". Available tools: search_docs, read_section, read_neighbors.' });
  });

  it('runs a call with arguments its tool does not take, and names them', () => {
    expect(checkToolCall('search_docs', { query: 'lease', k: 50, top_k: 3 })).toEqual({ ok: true, toolName: 'search_docs', input: { query: 'lease' }, ignored: ['k', 'top_k'] });
    expect(checkToolCall('read_neighbors', { chunk_id: 'notes#0', depth: 2 })).toEqual({ ok: true, toolName: 'read_neighbors', input: { chunk_id: 'notes#0' }, ignored: ['depth'] });
    expect(ignoredArgumentsNote('search_docs', ['k', 'top_k'])).toBe('ignored unknown arguments k, top_k: search_docs takes query, version, page');
    expect(ignoredArgumentsNote('read_neighbors', ['depth'])).toBe('ignored unknown argument depth: read_neighbors takes chunk_id');
  });
});
