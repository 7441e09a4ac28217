import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { pageStrength, queryCoverage } from './query-coverage.ts';

const index = createMemoryIndex([
  makeDoc('jobs', 'all', [
    ['Jobs', 'A job runs on a worker. Jobs retry.'],
    ['Workers', 'A worker runs jobs.'],
    ['Queues', 'Jobs wait in a queue.'],
  ]),
  makeDoc('deploy', 'all', [['Deploying', 'Run workers on kubernetes.']]),
]);

describe('queryCoverage', () => {
  it('weighs each word of the query by its rarity in the index: a rare word missing costs more than a common one', async () => {
    // 4 chunks: "jobs" in 3 (weight ln(1 + 4/4) = 0.69), "kubernetes" in 1 (ln(1 + 4/2) = 1.10), "evicted" in none (ln 5 = 1.61).
    expect(await queryCoverage('jobs evicted on kubernetes', ['Deploying\nRun workers on kubernetes.'], index)).toEqual({ share: 0.323 });
    expect(await queryCoverage('jobs evicted on kubernetes', ['Jobs\nA job runs on a worker.'], index)).toEqual({ share: 0.204 });
    // Without the index's counts, every word weighs 1.
    expect(await queryCoverage('jobs evicted on kubernetes', ['Deploying\nRun workers on kubernetes.'])).toEqual({ share: 0.333 });
  });

  it('meets words by their stems, ignores function words, and counts a query of none as covered', async () => {
    expect(await queryCoverage('What do the Workers run?', ['A worker runs jobs.'])).toEqual({ share: 1 });
    expect(await queryCoverage('what is it', ['anything'])).toEqual({ share: 1 });
  });

  it('reads a Chinese or Japanese query as its content words: no bigram across two words, no question or function word', async () => {
    // 富士山の標高は何メートルですか: 富士 士山 標高 メー ート トル, not の標, 高は, です ... which no page holds.
    expect(await queryCoverage('富士山の標高は何メートルですか？', ['富士山\n標高は3776メートルで、日本最高峰の山である。'])).toEqual({ share: 1 });
    // 战国无双3是由哪两个公司开发的: 战国 无双 公司 开发; the page holds three of them.
    expect(await queryCoverage('战国无双3是由哪两个公司开发的？', ['《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三作。'])).toEqual({ share: 0.75 });
  });

  it('gives no counts for an index with restricted pages (they would tell of their words)', async () => {
    const vault = makeDoc('vault', 'all', [['Vault', 'hush words']]);
    const restricted = createMemoryIndex([{ ...vault, labels: { acl: ['admins'] }, chunks: vault.chunks.map((chunk) => ({ ...chunk, labels: { acl: ['admins'] } })) }]);
    expect(await restricted.documentFrequencies?.(['hush'])).toBeUndefined();
    expect(await index.documentFrequencies?.(['jobs', 'kubernetes', 'evicted'])).toEqual({ chunks: 4, frequencies: [3, 1, 0] });
  });
});

describe('pageStrength', () => {
  it('is weak with no match, under the score threshold, or under the coverage threshold; strong otherwise', async () => {
    const thresholds = { weakScore: 2, weakCoverage: 0.4 };
    const [deploying] = await index.search('kubernetes', { k: 1 });
    const shown = [deploying!];
    expect(await pageStrength('jobs evicted on kubernetes', shown, 5, thresholds, index)).toEqual({ coverage: { share: 0.323 }, uncovered: true, weak: true });
    expect(await pageStrength('workers on kubernetes', shown, 5, thresholds, index)).toEqual({ coverage: { share: 1 }, uncovered: false, weak: false });
    expect(await pageStrength('workers on kubernetes', shown, 1, thresholds, index)).toEqual({ coverage: { share: 1 }, uncovered: false, weak: true });
    expect(await pageStrength('workers on kubernetes', [], undefined, thresholds, index)).toEqual({ uncovered: false, weak: true });
  });
});
