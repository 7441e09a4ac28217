import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

const alpha = createTestDoc({ docId: 'alpha', sections: ['Zebras graze at dawn.', 'Second part of alpha.'] });
const beta = createTestDoc({ docId: 'beta', appliesTo: '2.x', sections: ['Beta talks about walruses.'] });
const gamma = createTestDoc({ docId: 'gamma', appliesTo: '3.x', sections: ['Gamma mentions pelicans.'] });
const gammaChanged = createTestDoc({ docId: 'gamma', appliesTo: '3.x', sections: ['Gamma now mentions flamingos.'] });
const delta = createTestDoc({ docId: 'delta', sections: ['Delta covers otters.'] });

/** Ingest: exact reports, incremental updates, index versions, atomic rollback. Part of the shared suite. */
export function describeIngestContract(context: BackendSuiteContext): void {
  describe('ingest', () => {
    it('starts empty', async () => {
      const index = context.index();
      expect(await index.stats()).toEqual({ docs: 0, chunks: 0 });
      expect(await index.search('zebras', { k: 5 })).toEqual([]);
      expect(await index.getChunk('alpha#0')).toBeUndefined();
      expect(await index.neighbors('alpha#0')).toEqual([]);
    });

    it('reports added, updated, unchanged and removed documents exactly', async () => {
      const index = context.index();
      const first = await index.ingest([gamma, alpha, beta]);
      expect(first).toEqual({
        added: ['alpha', 'beta', 'gamma'],
        updated: [],
        unchanged: [],
        removed: [],
        chunks: 4,
        indexVersion: await index.indexVersion(),
      });
      const second = await index.ingest([gammaChanged, alpha, delta]);
      expect(second).toEqual({
        added: ['delta'],
        updated: ['gamma'],
        unchanged: ['alpha'],
        removed: ['beta'],
        chunks: 4,
        indexVersion: await index.indexVersion(),
      });
      expect(await index.stats()).toEqual({ docs: 3, chunks: 4 });
      expect(await index.search('walruses', { k: 5 })).toEqual([]);
      expect(await index.search('pelicans', { k: 5 })).toEqual([]);
      expect((await index.search('flamingos', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['gamma#0']);
      expect((await index.search('otters', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['delta#0']);
      expect(await index.getChunk('beta#0')).toBeUndefined();
    });

    it('changes the index version when content changes, and only then', async () => {
      const index = context.index();
      const empty = await index.indexVersion();
      const first = await index.ingest([alpha, beta, gamma]);
      expect(first.indexVersion).not.toBe(empty);
      const again = await index.ingest([gamma, beta, alpha]);
      expect(again.indexVersion).toBe(first.indexVersion);
      expect(again.unchanged).toEqual(['alpha', 'beta', 'gamma']);
      const changed = await index.ingest([alpha, beta, gammaChanged]);
      expect(changed.indexVersion).not.toBe(first.indexVersion);
      const removed = await index.ingest([alpha, beta]);
      expect(new Set([empty, first.indexVersion, changed.indexVersion, removed.indexVersion]).size).toBe(4);
      const restored = await index.ingest([alpha, beta, gamma]);
      expect(restored.indexVersion).toBe(first.indexVersion);
      expect(await index.indexVersion()).toBe(first.indexVersion);
    });

    it('rolls a failed ingest back and keeps the previous index usable', async () => {
      const index = context.index();
      const before = await index.ingest([alpha, beta]);
      const alphaChanged = createTestDoc({ docId: 'alpha', sections: ['Alpha now mentions giraffes.'] });
      const broken = createTestDoc({ docId: 'broken', sections: ['One.', 'Two.'] });
      const duplicateChunk = { ...broken.chunks[0]!, chunkId: broken.chunks[1]!.chunkId };
      const bad = { ...broken, chunks: [duplicateChunk, broken.chunks[1]!] };
      await expect(index.ingest([alphaChanged, gamma, bad])).rejects.toThrow();
      expect(await index.stats()).toEqual({ docs: 2, chunks: 3 });
      expect(await index.indexVersion()).toBe(before.indexVersion);
      expect((await index.search('zebras', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['alpha#0']);
      expect(await index.search('giraffes', { k: 5 })).toEqual([]);
      expect(await index.search('pelicans', { k: 5 })).toEqual([]);
      expect(await index.getChunk('beta#0')).toEqual(beta.chunks[0]);
      const after = await index.ingest([alphaChanged]);
      expect(after).toMatchObject({ added: [], updated: ['alpha'], unchanged: [], removed: ['beta'], chunks: 1 });
    });

    it('rejects two documents with the same id and writes nothing', async () => {
      const index = context.index();
      const before = await index.ingest([alpha]);
      await expect(index.ingest([beta, { ...gamma, docId: 'beta' }])).rejects.toThrow(AtlasError);
      expect(await index.stats()).toEqual({ docs: 1, chunks: 2 });
      expect(await index.indexVersion()).toBe(before.indexVersion);
    });
  });
}
