import { describe, expect, it } from 'vitest';
import { createMemoryIndex } from '../testing/memory-index.ts';
import { createTestDoc } from '../index/test-docs.ts';
import { yieldingIndex } from './yielding-index.ts';

describe('yieldingIndex', () => {
  it('waits for a turn before each search, getChunk and neighbors, and answers as the index does', async () => {
    const log: string[] = [];
    const doc = createTestDoc({ docId: 'leases', sections: ['Lease duration is 30 seconds.', 'Renew the lease before it expires.'] });
    const index = createMemoryIndex([doc]);
    const yielding = yieldingIndex(index, async () => {
      log.push('turn');
    });
    const hits = await yielding.search('lease', { k: 1 });
    log.push('searched');
    expect(hits.map((hit) => hit.chunkId)).toEqual((await index.search('lease', { k: 1 })).map((hit) => hit.chunkId));
    expect(await yielding.getChunk('leases#1')).toEqual(await index.getChunk('leases#1'));
    log.push('got');
    expect(await yielding.neighbors('leases#0')).toEqual(await index.neighbors('leases#0'));
    expect(await yielding.stats()).toEqual({ docs: 1, chunks: 2 });
    expect(log).toEqual(['turn', 'searched', 'turn', 'got', 'turn']);
  });
});
