import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { headingSlug } from './anchor-match.ts';
import { createLinkResolver, markdownLinks, MAX_LINKS_PER_PASSAGE } from './passage-links.ts';
import { SearchSession } from './search-session.ts';

const index = createMemoryIndex([
  makeDoc('config-maxworkers', 'all', [['maxWorkers', 'How many workers run.']]),
  makeDoc('api-expect', 'all', [
    ['expect', 'Assertions.'],
    ['expect.assertions', 'Counts assertions.'],
    ['expect.hasAssertions', 'At least one assertion.'],
  ]),
  makeDoc('legacy', '2.x', [['Legacy', 'The 2.x way.']]),
  makeDoc('guide', 'all', [
    [
      'Guide',
      'Raise [`maxWorkers`](/config/maxworkers) or see [hasAssertions](/api/expect#expect-hasassertions), [assertions](../api/expect#assertions), [the old way](/legacy), [gone](./missing.md), [site](https://vitest.dev) and [self](/guide).',
    ],
  ]),
]);

describe('passage links', () => {
  it('resolves each internal link to the chunk its anchor names, else the page first chunk, and says when no readable page is there', async () => {
    const resolver = createLinkResolver(index, { version: '3.x' });
    const text = (await index.getChunk('guide#0'))!.text;
    expect(await resolver.links({ docId: 'guide', chunkId: 'guide#0' }, text)).toEqual([
      { text: 'maxWorkers', href: '/config/maxworkers', target: { doc_id: 'config-maxworkers', chunk_id: 'config-maxworkers#0' } },
      { text: 'hasAssertions', href: '/api/expect#expect-hasassertions', target: { doc_id: 'api-expect', chunk_id: 'api-expect#2' } },
      // The anchor slug ends the heading's slug ("expect.assertions"): that section.
      { text: 'assertions', href: '../api/expect#assertions', target: { doc_id: 'api-expect', chunk_id: 'api-expect#1' } },
      // A 2.x page under a 3.x filter is named no more than a page that does not exist.
      { text: 'the old way', href: '/legacy' },
      { text: 'gone', href: './missing.md' },
    ]);
    const unfiltered = createLinkResolver(index, undefined);
    expect((await unfiltered.links({ docId: 'guide', chunkId: 'guide#0' }, '[the old way](/legacy)'))[0]).toEqual({ text: 'the old way', href: '/legacy', target: { doc_id: 'legacy', chunk_id: 'legacy#0' } });
  });

  it('names a restricted page only to a session whose principal may read it', async () => {
    const restricted = makeDoc('runbook', 'all', [['Runbook', 'Admins only.']]);
    for (const chunk of restricted.chunks) chunk.labels = { acl: ['admins'] };
    const acl = createMemoryIndex([{ ...restricted, labels: { acl: ['admins'] } }, makeDoc('ops', 'all', [['Ops', 'See [the runbook](/runbook) when leases stall.']])]);
    const links = async (session: SearchSession) => {
      const outcome = await session.searchDocs({ query: 'leases stall' });
      return outcome.ok ? outcome.value.results.map((result: Record<string, unknown>) => result.links) : undefined;
    };
    expect(await links(new SearchSession({ index: acl, weakScore: 0 }))).toEqual([{ '/runbook': null }]);
    expect(await links(new SearchSession({ index: acl, weakScore: 0, principal: { groups: ['admins'] } }))).toEqual([{ '/runbook': 'runbook#0' }]);
  });

  it(`resolves at most ${MAX_LINKS_PER_PASSAGE} distinct links of a passage`, async () => {
    const text = Array.from({ length: 8 }, (_, n) => `[page ${n % 7}](/page-${n % 7})`).join(' ');
    const links = await createLinkResolver(index, undefined).links({ docId: 'guide', chunkId: 'guide#0' }, text);
    expect(links.map((link) => link.href)).toEqual(['/page-0', '/page-1', '/page-2', '/page-3', '/page-4']);
  });

  it('finds a section held in a chunk of small sections, and a Sphinx anchor in its letter case', async () => {
    const sphinx = createMemoryIndex([
      makeDoc('typing', 'all', [
        ['typing', 'Type hints.'],
        ['typing.Final', 'A final name.\n\n##### typing.Required\n\nRequired keys.'],
        ['@typing.overload', 'Overloads.\n\n#### @typing.final\n\nA decorator.'],
      ]),
    ]);
    const resolver = createLinkResolver(sphinx, undefined);
    const targets = await resolver.links({ docId: 'other', chunkId: 'other#0' }, '[final](typing.html#typing.final), [Final](typing.html#typing.Final) and [Required](typing.html#typing.Required).');
    expect(targets.map((link) => link.target?.chunk_id)).toEqual(['typing#2', 'typing#1', 'typing#1']);
  });

  it('reads links as documentation sites write them, and headings as their anchors spell them', () => {
    expect(markdownLinks('See [Leases](leases.md "the lease"), ![logo](logo.png), [site](https://x.dev), [above](#top) and [`addJob`](/docs/library/add-job).')).toEqual([
      { text: 'Leases', href: 'leases.md' },
      { text: 'addJob', href: '/docs/library/add-job' },
    ]);
    expect(['`vi.setConfig`', 'expect.hasAssertions', 'Type: number | string', 'Übersicht & Co.'].map(headingSlug)).toEqual(['vi-setconfig', 'expect-hasassertions', 'type-number-string', 'übersicht-co']);
  });

  it('names the targets of the links in search results and read sections, null for none the session may read', async () => {
    const session = new SearchSession({ index, filter: { version: '3.x' }, weakScore: 0 });
    const search = await session.searchDocs({ query: 'raise maxWorkers' });
    const links = {
      '/config/maxworkers': 'config-maxworkers#0',
      '/api/expect#expect-hasassertions': 'api-expect#2',
      '../api/expect#assertions': 'api-expect#1',
      '/legacy': null,
      './missing.md': null,
    };
    expect(search.ok && search.value.results.map((result: Record<string, unknown>) => [result.chunk_id, result.links])).toEqual([
      ['config-maxworkers#0', undefined],
      ['guide#0', links],
    ]);
    const read = await session.readSection({ chunk_id: 'guide#0' });
    expect(read.ok && read.value.links).toEqual(links);
  });
});
