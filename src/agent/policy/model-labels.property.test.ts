import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelValue } from '../../corpus/types.ts';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import { createTestDoc } from '../../index/test-docs.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';
import { createMemoryIndex } from '../../testing/memory-index.ts';
import { modelLabelChoices } from './model-labels.ts';
import { SearchSession } from '../session/search-session.ts';
import { createAgentTools, executeToolCall } from '../session/tools.ts';

const STORES = ['Aundh', 'Baner', 'Wakad'];
const WORDS = ['cake', 'oven', 'label', 'nuts', 'counter', 'line'];

/** 24 pages over a small vocabulary: each store, several stores, all, no store; some admins-only, some 3.x. */
const docs = Array.from({ length: 24 }, (_, n) => {
  const stores: Array<LabelValue | undefined> = ['Aundh', 'Baner', 'Wakad', 'all', undefined, ['Aundh', 'Baner']];
  const store = stores[n % stores.length];
  const labels: Record<string, LabelValue> = { ...(store === undefined ? {} : { store }), ...(n % 5 === 0 ? { acl: 'admins' } : {}) };
  const words = [0, 1, 2].map((w) => WORDS[(n + w * 5) % WORDS.length]).join(' ');
  return createTestDoc({ docId: `p${n}`, appliesTo: n % 4 === 3 ? '3.x' : 'all', labels, sections: [`${words} text ${n}.`] });
});

const enforcedArb: fc.Arbitrary<SearchFilter> = fc.record(
  {
    labels: fc.subarray([...STORES, 'all'], { minLength: 1 }).map((values) => ({ store: values })),
    version: fc.constantFrom('2.x', '3.x'),
    principal: fc.constantFrom({ groups: [] }, { groups: ['admins'] }),
  },
  { requiredKeys: [] },
);
const chosenArb = fc.option(fc.constantFrom(...STORES, 'all', 'Kothrud', ''), { nil: undefined });
const queryArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

const sqlite = createSqliteIndex({ path: ':memory:' });
const memory = createMemoryIndex();
beforeAll(async () => {
  await sqlite.ingest(docs);
  await memory.ingest(docs);
});
afterAll(async () => {
  await sqlite.close();
});

describe.each([
  ['sqlite', sqlite as IndexBackend],
  ['memory', memory],
])('model labels never widen the enforced filter (%s index)', (_name, index) => {
  it('shows only chunks the enforced filter lets through, whatever store the model sends', async () => {
    await fc.assert(
      fc.asyncProperty(enforcedArb, fc.array(fc.tuple(queryArb, chosenArb), { minLength: 1, maxLength: 6 }), async (enforced, calls) => {
        const allowed = new Set((await index.search(WORDS.join(' '), { k: 100, filter: enforced })).map((hit) => hit.chunkId));
        const { offered } = await modelLabelChoices(index, [{ name: 'store' }], enforced);
        // The enum names only values of pages this principal may read.
        const readable = new Set((await index.search(WORDS.join(' '), { k: 100, ...(enforced.principal ? { filter: { principal: enforced.principal } } : {}) })).flatMap((hit) => [hit.labels.store ?? []].flat()));
        for (const value of offered[0]?.values ?? []) expect(readable.has(value)).toBe(true);
        const toolSet = createAgentTools(offered);
        const session = new SearchSession({ index, filter: enforced, maxSearches: 100 });
        for (const [query, store] of calls) {
          const outcome = await executeToolCall(session, 'search_docs', { query, ...(store === undefined ? {} : { store }) }, toolSet);
          if (!outcome.ok) continue;
          for (const result of outcome.value.results as Array<{ chunk_id: string }>) expect(allowed.has(result.chunk_id)).toBe(true);
        }
        for (const item of session.evidence.items()) expect(allowed.has(item.chunk.chunkId)).toBe(true);
      }),
      { numRuns: 80, seed: 7 },
    );
  });

  it('a chosen store does narrow: the check above can fail', async () => {
    const { offered } = await modelLabelChoices(index, [{ name: 'store' }], undefined);
    const session = new SearchSession({ index, maxSearches: 10 });
    const outcome = await executeToolCall(session, 'search_docs', { query: WORDS.join(' '), store: 'Wakad' }, createAgentTools(offered));
    const stores = outcome.ok ? (outcome.value.results as Array<{ chunk_id: string }>).map((result) => [docs.find((doc) => doc.chunks[0]!.chunkId === result.chunk_id)!.labels.store ?? 'none'].flat().join('+')) : [];
    expect([...new Set(stores)].sort()).toEqual(['Wakad', 'all', 'none']);
  });
});
