import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './dataset.ts';
import { everyNth } from './sample.ts';

const TINY = path.join(import.meta.dirname, '..', '__fixtures__', 'tiny');

describe('everyNth', () => {
  it('keeps the 1st, (n+1)-th, ... case of each eval file and every doc, and names the sample', async () => {
    const dataset = await loadDataset(TINY);
    const sample = everyNth(dataset, 3);
    expect(sample.name).toBe('tiny (every 3rd case)');
    expect(sample.retrievalQueries?.map((query) => query.id)).toEqual([dataset.retrievalQueries![0]!.id, dataset.retrievalQueries![3]!.id]);
    expect(sample.qaGold?.map((item) => item.id)).toEqual([dataset.qaGold![0]!.id, dataset.qaGold![3]!.id]);
    expect(sample.decisions?.map((item) => item.id)).toEqual([dataset.decisions![0]!.id, dataset.decisions![3]!.id]);
    expect(sample.docs).toBe(dataset.docs);
    expect(everyNth(dataset, 1)).toBe(dataset);
    expect([2, 11, 21, 22, 112].map((n) => everyNth(dataset, n).name)).toEqual([
      'tiny (every 2nd case)',
      'tiny (every 11th case)',
      'tiny (every 21st case)',
      'tiny (every 22nd case)',
      'tiny (every 112th case)',
    ]);
  });
});
