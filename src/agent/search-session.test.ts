import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { SearchSession } from './search-session.ts';

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
    expect(second.ok && second.value).toMatchObject({ note: '2 already-seen passages skipped' });
    expect(session.steps.map((step) => [step.chunkIds, step.newDocIds, step.skippedSeen])).toEqual([
      [['guide#0', 'guide#1'], ['guide'], 0],
      [['guide#2', 'new#0'], ['new'], 2],
    ]);
    expect(session.rankedDocIds()).toEqual(['guide', 'new']);
  });

  it('refuses a query with the same words and version, and counts it toward the budget', async () => {
    const session = new SearchSession({ index, maxSearches: 3, weakScore: 0 });
    await session.searchDocs({ query: 'Lease timeout' });
    const again = await session.searchDocs({ query: 'timeout  lease' });
    const otherVersion = await session.searchDocs({ query: 'timeout lease', version: '3.x' });
    expect(again).toEqual({ ok: true, value: { results: [], note: 'duplicate query: search for what is still missing.' } });
    expect(otherVersion.ok && otherVersion.value.note).toBe('4 already-seen passages skipped; no new passages: search for something else or answer');
    expect(session.steps.map((step) => step.note)).toEqual([undefined, 'duplicate-query', 'no-new-results']);
    expect(session.searchesUsed).toBe(3);
    expect(await session.searchDocs({ query: 'anything else' })).toEqual({
      ok: false,
      error: 'search budget exhausted (3 searches used): answer now from the passages you have.',
    });
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
