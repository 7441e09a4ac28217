import { describe, expect, it } from 'vitest';
import type { Hit } from '../../index/types.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { RESULT_TEXT_BUDGET, WHOLE_PASSAGE_CHARS, wholePassages } from './result-page.ts';
import { SearchSession } from './search-session.ts';

const hit = (chunkId: string, textChars: number, snippetChars: number) => ({ chunkId, text: 'x'.repeat(textChars), snippet: 's'.repeat(snippetChars) }) as Hit;

describe('what a page of search results shows of each passage', () => {
  it('shows short passages whole in rank order while the page stays within its budget, keeping room for the snippets after', () => {
    expect([RESULT_TEXT_BUDGET, WHOLE_PASSAGE_CHARS]).toEqual([4800, 1600]);
    // 1500 + 1600 + 300 (c's snippet: 1601 is too long) + 1300 + 100 (e's snippet) = 4800.
    const hits = [hit('a', 1500, 300), hit('b', 1600, 300), hit('c', 1601, 300), hit('d', 1300, 300), hit('e', 1200, 100)];
    expect([...wholePassages(hits)]).toEqual(['a', 'b', 'd']);
    // One character more for d and the budget no longer holds it with e's snippet: e, short, takes its place.
    expect([...wholePassages([...hits.slice(0, 3), hit('d', 1301, 300), hit('e', 1000, 100)])]).toEqual(['a', 'b', 'e']);
    expect([...wholePassages(hits, { budget: 0 })]).toEqual([]);
    expect([...wholePassages(hits, { fits: (candidate) => candidate.chunkId !== 'a' })]).toEqual(['b', 'd', 'e']);
  });

  it('records a passage shown whole as read, so a quote from any part of it verifies', async () => {
    const long = `Leases renew every 30 seconds. ${'Filler words about nothing. '.repeat(70)}A lost lease raises ORB-1300.`;
    const index = createMemoryIndex([makeDoc('leases', 'all', [['Leases', 'A lease lasts 30 seconds. A lost lease raises ORB-1300 and the step runs again.'], ['Renewal', long]])]);
    const session = new SearchSession({ index, weakScore: 0 });
    const outcome = await session.searchDocs({ query: 'lost lease ORB-1300' });
    expect(outcome.ok && outcome.value.results.map((result: Record<string, unknown>) => [result.chunk_id, result.complete ?? false, result.total_chars ?? null])).toEqual([
      ['leases#0', true, null],
      ['leases#1', false, long.length],
    ]);
    expect(session.evidence.get('leases#0')).toMatchObject({ shown: ['A lease lasts 30 seconds. A lost lease raises ORB-1300 and the step runs again.'], source: 'read' });
    expect(session.evidence.get('leases#1')).toMatchObject({ source: 'search' });
    expect(long.length).toBeGreaterThan(WHOLE_PASSAGE_CHARS);
  });
});
