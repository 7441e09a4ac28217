import { describe, expect, it } from 'vitest';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

/** Stores of a bakery: two store pages, a shared page, a page without a store, a 3.x-only page, an admins-only page. */
const docs = [
  createTestDoc({ docId: 'aundh', labels: { store: 'Aundh', section: 'ops' }, sections: ['Aundh line 2.'] }),
  createTestDoc({ docId: 'baner', labels: { store: ['Baner', 'Wakad'] }, sections: ['Baner ovens.'] }),
  createTestDoc({ docId: 'shared', labels: { store: 'all' }, sections: ['Label policy.'] }),
  createTestDoc({ docId: 'faq', sections: ['Allergy FAQ.'] }),
  createTestDoc({ docId: 'kothrud', appliesTo: '3.x', labels: { store: 'Kothrud' }, sections: ['Kothrud opens in 3.x.'] }),
  createTestDoc({
    docId: 'secret',
    labels: { acl: 'admins' },
    sections: ['Public intro.', { heading: 'Closing', text: 'Hinjewadi closes.', labels: { acl: 'admins', store: 'Hinjewadi' } }],
  }),
];

/** `labelValues`: the values of a label on the chunks a filter lets through. Part of the shared suite. */
export function describeLabelValuesContract(context: BackendSuiteContext): void {
  describe('labelValues', () => {
    it('lists the distinct values of a label, sorted, without "all"', async () => {
      const index = context.index();
      expect(await index.labelValues('store')).toEqual([]);
      await index.ingest(docs);
      expect(await index.labelValues('store')).toEqual(['Aundh', 'Baner', 'Kothrud', 'Wakad']);
      expect(await index.labelValues('section')).toEqual(['ops']);
      expect(await index.labelValues('colour')).toEqual([]);
    });

    it('lists only values of chunks the filter lets through: version, labels and the principal', async () => {
      const index = context.index();
      await index.ingest(docs);
      expect(await index.labelValues('store', { version: '2.x' })).toEqual(['Aundh', 'Baner', 'Wakad']);
      expect(await index.labelValues('store', { labels: { store: 'Baner' } })).toEqual(['Baner', 'Wakad']);
      expect(await index.labelValues('store', { labels: { section: 'billing' } })).toEqual(['Baner', 'Kothrud', 'Wakad']);
      expect(await index.labelValues('store', { principal: { groups: ['staff'] } })).toEqual(['Aundh', 'Baner', 'Kothrud', 'Wakad']);
      expect(await index.labelValues('store', { principal: { groups: ['admins'] } })).toEqual(['Aundh', 'Baner', 'Hinjewadi', 'Kothrud', 'Wakad']);
      expect(await index.labelValues('acl')).toEqual([]);
      expect(await index.labelValues('acl', { principal: { groups: ['admins'] } })).toEqual(['admins']);
    });
  });
}
