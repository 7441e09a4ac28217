import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import type { Citation } from './answer.ts';
import { checkCitationsCurrent } from './current-citations.ts';

const LEASE = 'A worker holds a job for a lease of sixty seconds.';
const leases = (sections: Array<[string, string]>) => makeDoc('leases', 'all', sections);
const citation = (quote: string, chunkId = 'leases#1'): Citation => ({
  docId: 'leases',
  quote,
  chunkId,
  heading: 'Duration',
  headingPath: ['Leases', 'Duration'],
  sourcePath: 'leases.md',
  startLine: 3,
  endLine: 3,
});

async function check(sections: Array<[string, string]> | undefined, cited: Citation) {
  const index = createMemoryIndex(sections ? [leases(sections)] : [makeDoc('other', 'all', [['Other', 'Nothing about leases.']])]);
  return checkCitationsCurrent([cited], (chunkId) => index.getChunk(chunkId));
}

describe('checkCitationsCurrent', () => {
  it('keeps a quote still in its chunk as it is', async () => {
    expect(await check([['Leases', 'Intro.'], ['Duration', LEASE]], citation(LEASE))).toEqual([citation(LEASE)]);
  });

  it('keeps a quote that moved to another chunk of its page, located there', async () => {
    const moved = await check([['Leases', 'Intro.'], ['Heartbeats', 'Workers send a heartbeat.'], ['Duration', LEASE]], citation(LEASE));
    expect(moved).toEqual([{ ...citation(LEASE), chunkId: 'leases#2', headingPath: ['Leases', 'Duration'], startLine: 6, endLine: 6 }]);
  });

  it('marks a quote of changed text stale, with the reason', async () => {
    const changed = await check([['Leases', 'Intro.'], ['Duration', 'A worker holds a job for a lease of ninety seconds.']], citation(LEASE));
    expect(changed).toEqual([{ ...citation(LEASE), stale: { reason: 'the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read' } }]);
  });

  it('marks a quote of a removed page stale, with the reason', async () => {
    expect(await check(undefined, citation(LEASE))).toEqual([
      { ...citation(LEASE), stale: { reason: 'the page "leases" (leases.md) is no longer in the index: it was removed since the passage was read' } },
    ]);
  });

  it('reads a quote of a table header and a row (as a snippet shows them) as current', async () => {
    const table = '| Setting | Default |\n|---|---|\n| lease_seconds | 60 |\n| heartbeat | 10 |';
    const quote = '| Setting | Default |\n| heartbeat | 10 |';
    expect(await check([['Leases', 'Intro.'], ['Duration', table]], citation(quote))).toEqual([citation(quote)]);
  });

  it('drops a stale mark given before and checks again: a page changed back is current', async () => {
    const marked = { ...citation(LEASE), stale: { reason: 'old' } };
    expect(await check([['Leases', 'Intro.'], ['Duration', LEASE]], marked)).toEqual([citation(LEASE)]);
  });
});
