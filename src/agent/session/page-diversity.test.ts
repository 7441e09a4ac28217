import { describe, expect, it } from 'vitest';
import type { Hit } from '../../index/types.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { diversePage } from './page-diversity.ts';
import { SearchSession } from './search-session.ts';

const hit = (chunkId: string): Hit => {
  const docId = chunkId.split('#')[0]!;
  return { chunkId, docId, title: docId, heading: docId, headingPath: [docId], text: '', appliesTo: 'all', ord: 0, score: 1, snippet: '' } as Hit;
};
const ids = (hits: Hit[]) => hits.map((one) => one.chunkId);

describe('diversePage', () => {
  it('lets a third passage of a page give way to the best passage of a page not seen yet', () => {
    const window = ['a#2', 'b#0', 'b#1', 'a#3', 'c#0', 'c#1'].map(hit);
    expect(ids(diversePage(window, { k: 3, maxPerDoc: 2, seenDocIds: ['a', 'a'] }))).toEqual(['b#0', 'b#1', 'c#0']);
    // Nothing seen: the page's own hits stay, in rank order.
    expect(ids(diversePage(window, { k: 3, maxPerDoc: 2, seenDocIds: [] }))).toEqual(['a#2', 'b#0', 'b#1']);
  });

  it('counts passages of one document on the page itself, and fills in rank order when no new document is left', () => {
    const window = ['a#0', 'a#1', 'a#2', 'a#3', 'a#4'].map(hit);
    expect(ids(diversePage(window, { k: 3, maxPerDoc: 2, seenDocIds: [] }))).toEqual(['a#0', 'a#1', 'a#2']);
    expect(ids(diversePage(['a#0', 'a#1', 'a#2', 'b#0', 'b#1'].map(hit), { k: 3, maxPerDoc: 2, seenDocIds: [] }))).toEqual(['a#0', 'a#1', 'b#0']);
  });
});

describe('SearchSession pages from 3 on', () => {
  const index = createMemoryIndex([
    makeDoc('guide', 'all', [
      ['Guide', 'lease lease lease lease lease lease lease lease'],
      ['More', 'lease lease lease lease lease lease lease'],
      ['Tips', 'lease lease lease lease lease lease'],
      ['Extra', 'lease lease lease lease lease'],
    ]),
    makeDoc('faq', 'all', [['FAQ', 'lease lease lease lease']]),
    makeDoc('ops', 'all', [['Ops', 'lease lease lease']]),
  ]);
  const chunkIds = (outcome: Awaited<ReturnType<SearchSession['searchDocs']>>) =>
    outcome.ok ? outcome.value.results.map((result: { chunk_id: string }) => result.chunk_id) : [];

  it('shows a page not seen yet instead of a third passage of one page, and keeps rank order when told to', async () => {
    const ranks = await new SearchSession({ index, k: 1, weakScore: 0, pageDiversity: false }).searchDocs({ query: 'lease', page: 1 });
    expect(chunkIds(ranks)).toEqual(['guide#0']);
    const diverse = new SearchSession({ index, k: 1, weakScore: 0 });
    const plain = new SearchSession({ index, k: 1, weakScore: 0, pageDiversity: false });
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push([chunkIds(await diverse.searchDocs({ query: 'lease', page })), chunkIds(await plain.searchDocs({ query: 'lease', page }))]);
    expect(pages).toEqual([
      [['guide#0'], ['guide#0']],
      [['guide#1'], ['guide#1']],
      [['faq#0'], ['guide#2']],
      [['ops#0'], ['guide#3']],
    ]);
    // Page 4 starts at rank 4 (guide#3, unseen): faq#0 (rank 5, shown on page 3) counts as skipped.
    expect(diverse.steps.map((step) => [step.page, step.skippedSeen])).toEqual([[undefined, 0], [2, 0], [3, 0], [4, 1]]);
  });
});
