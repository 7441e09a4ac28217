import { describe, expect, it } from 'vitest';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

const guide = createTestDoc({
  docId: 'guide',
  appliesTo: '3.x',
  labels: { audience: 'public' },
  sections: [
    'Overview of the guide.',
    { heading: 'Internals', text: 'How the broker stores leases.', labels: { audience: 'internal' } },
    { heading: 'Usage', text: 'Run the worker.' },
    { heading: 'Limits', parents: ['Usage'], text: 'Queues hold ten thousand jobs.' },
  ],
});
const single = createTestDoc({ docId: 'single', appliesTo: '2.x', sections: ['Only one section.'] });
const shared = createTestDoc({ docId: 'shared', appliesTo: 'all', sections: ['First.', 'Second.'] });

/** getChunk and neighbors: exact chunks, order, and the same filters as search. Part of the shared suite. */
export function describeReadingContract(context: BackendSuiteContext): void {
  describe('getChunk and neighbors', () => {
    it('returns the chunk exactly as ingested, or undefined for an unknown id', async () => {
      const index = context.index();
      await index.ingest([guide, single, shared]);
      expect(await index.getChunk('guide#1')).toEqual(guide.chunks[1]);
      expect((await index.getChunk('guide#3'))?.headingPath).toEqual(['Doc guide', 'Usage', 'Limits']);
      expect(await index.getChunk('single#0')).toEqual(single.chunks[0]);
      expect(await index.getChunk('guide#9')).toBeUndefined();
      expect(await index.getChunk('')).toBeUndefined();
    });

    it('treats a chunk outside the filter like an unknown id', async () => {
      const index = context.index();
      await index.ingest([guide, single, shared]);
      expect(await index.getChunk('guide#0', { version: '3.x' })).toEqual(guide.chunks[0]);
      expect(await index.getChunk('guide#0', { version: '2.x' })).toBeUndefined();
      expect(await index.getChunk('shared#0', { version: '2.x' })).toEqual(shared.chunks[0]);
      expect(await index.getChunk('guide#1', { labels: { audience: 'public' } })).toBeUndefined();
      expect(await index.getChunk('guide#1', { labels: { audience: ['public', 'internal'] } })).toEqual(guide.chunks[1]);
      expect(await index.getChunk('guide#1', { labels: { audience: 'all' } })).toBeUndefined();
      expect(await index.getChunk('single#0', { labels: { audience: 'public' } })).toEqual(single.chunks[0]);
    });

    it('returns the previous and next chunk of the same document, in order', async () => {
      const index = context.index();
      await index.ingest([guide, single, shared]);
      expect(await index.neighbors('guide#2')).toEqual([guide.chunks[1], guide.chunks[3]]);
      expect(await index.neighbors('guide#0')).toEqual([guide.chunks[1]]);
      expect(await index.neighbors('guide#3')).toEqual([guide.chunks[2]]);
      expect(await index.neighbors('shared#1')).toEqual([shared.chunks[0]]);
      expect(await index.neighbors('single#0')).toEqual([]);
      expect(await index.neighbors('unknown#0')).toEqual([]);
    });

    it('applies the filter to the chunk and to its neighbors', async () => {
      const index = context.index();
      await index.ingest([guide, single, shared]);
      const publicOnly = { labels: { audience: 'public' } };
      expect(await index.neighbors('guide#2', publicOnly)).toEqual([guide.chunks[3]]);
      expect(await index.neighbors('guide#0', publicOnly)).toEqual([]);
      expect(await index.neighbors('guide#1', publicOnly)).toEqual([]);
      expect(await index.neighbors('guide#2', { version: '3.x' })).toEqual([guide.chunks[1], guide.chunks[3]]);
      expect(await index.neighbors('guide#2', { version: '2.x' })).toEqual([]);
      expect(await index.neighbors('shared#0', { version: '2.x' })).toEqual([shared.chunks[1]]);
    });
  });
}
