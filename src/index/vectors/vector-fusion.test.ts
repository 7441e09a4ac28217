import { describe, expect, it } from 'vitest';
import type { Hit } from '../types.ts';
import { fuseRankings, withScore } from './vector-fusion.ts';

function hit(chunkId: string, score: number): Hit {
  return { chunkId, docId: chunkId.split('#')[0]!, title: '', heading: '', headingPath: [], text: '', appliesTo: 'all', ord: 0, labels: {}, sourcePath: '', startLine: 1, endLine: 1, score, snippet: '' };
}

describe('fuseRankings', () => {
  it('sums weight / (k + rank) over the rankings, best first', () => {
    const fused = fuseRankings(
      [
        { hits: [hit('a#0', 9), hit('b#0', 5), hit('c#0', 1)], weight: 1 },
        { hits: [hit('c#0', 0.9), hit('a#0', 0.8), hit('d#0', 0.1)], weight: 1 },
      ],
      60,
    );
    expect(fused.map((entry) => [entry.chunkId, Number(entry.score.toFixed(6))])).toEqual([
      ['a#0', Number((1 / 61 + 1 / 62).toFixed(6))],
      ['c#0', Number((1 / 63 + 1 / 61).toFixed(6))],
      ['b#0', Number((1 / 62).toFixed(6))],
      ['d#0', Number((1 / 63).toFixed(6))],
    ]);
  });

  it('weights each ranking: a vector weight of 0 leaves the BM25 order', () => {
    const fused = fuseRankings(
      [
        { hits: [hit('a#0', 9), hit('b#0', 5)], weight: 1 },
        { hits: [hit('b#0', 0.9), hit('z#0', 0.8)], weight: 0 },
      ],
      60,
    );
    expect(fused.map((entry) => entry.chunkId)).toEqual(['a#0', 'b#0', 'z#0']);
  });

  it('breaks ties by the better best rank, then the earlier ranking', () => {
    const fused = fuseRankings(
      [
        { hits: [hit('a#0', 1), hit('b#0', 1)], weight: 1 },
        { hits: [hit('c#0', 1), hit('d#0', 1)], weight: 1 },
      ],
      60,
    );
    expect(fused.map((entry) => entry.chunkId)).toEqual(['a#0', 'c#0', 'b#0', 'd#0']);
  });
});

describe('withScore', () => {
  it('copies a hit with another score and leaves a lazy snippet uncomputed', () => {
    let computed = 0;
    const lazy = Object.defineProperty(hit('a#0', 3), 'snippet', { enumerable: true, get: () => `made ${++computed}` });
    const copy = withScore(lazy, 0.5);
    expect(computed).toBe(0);
    expect(copy.score).toBe(0.5);
    expect(lazy.score).toBe(3);
    expect(copy.snippet).toBe('made 1');
  });
});
