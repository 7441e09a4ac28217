import { sharedFolder } from '../testing/shared-folder.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareCases } from './cases.ts';
import { loadDataset, type Dataset } from './dataset/dataset.ts';
import { checkFacts } from './facts.ts';

// The dev datasets live outside the repo, beside it in ../shared/datasets (or under ATLAS_SHARED_DIR).
const { path: graphile, present, absent } = sharedFolder('datasets/graphile-worker-dev', process.env);

describe('the graphile-worker-dev dataset', () => {
  let dataset: Dataset;
  beforeAll(async () => {
    if (present) dataset = await loadDataset(graphile);
  });

  it('loads, with its unanswerable qa lines, and makes one case per line', ({ skip }) => {
    skip(!present, absent);
    const cases = compareCases(dataset);
    const kinds = Object.fromEntries(['exact_term', 'semantic', 'multi_hop', 'unanswerable', 'qa'].map((kind) => [kind, cases.filter((item) => item.kind === kind).length]));
    expect([cases.length, kinds, cases.filter((item) => item.facts.length > 0).length]).toEqual([
      100,
      { exact_term: 10, semantic: 10, multi_hop: 20, unanswerable: 20, qa: 40 },
      80,
    ]);
  });

  it('finds every fact in its reference answer, and its first spelling in a gold page (wrapped lines included)', ({ skip }) => {
    skip(!present, absent);
    const missing = (dataset.qaGold ?? []).flatMap((item) => {
      const pages = dataset.docs.filter((doc) => item.citations.includes(doc.docId)).map((doc) => doc.chunks.map((chunk) => `${chunk.heading}\n${chunk.text}`).join('\n'));
      const inPages = checkFacts(item.facts.map((fact) => fact.slice(0, 1)), pages).missing;
      const inAnswer = checkFacts(item.facts, [item.answer]).missing;
      return [...inPages, ...inAnswer].map((fact) => `${item.id}: ${fact.join(' | ')}`);
    });
    // Without joining wrapped lines, "1 minute" (qa-gw-21) and "4 hours" (qa-gw-31) would be missing.
    expect(missing).toEqual([]);
  });
});
