import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../embed/types.ts';
import { createHashEmbedder, createRecordingEmbedder, createScriptedReranker } from '../../testing/embedders.ts';
import { createTestDoc } from '../test-docs.ts';
import { withRetrieval, type VectorCapableIndex } from '../vectors/vector-retrieval.ts';

const docs = () => [
  createTestDoc({ docId: 'leases', sections: ['A lease expires after thirty seconds.', { heading: 'Renewal', text: 'Workers renew their lease with a heartbeat.' }] }),
  createTestDoc({ docId: 'payloads', appliesTo: '3.x', sections: ['Payload limits: max_payload_kb is 512.'] }),
  createTestDoc({ docId: 'vault', labels: { acl: 'admins' }, sections: ['Lease secrets rotate nightly.'] }),
];

/** An embedder that puts every text on one axis but those naming `word`, which go on another. */
function axisEmbedder(word: string): Embedder {
  return {
    model: `axis:${word}`,
    maxBatch: 100,
    async embed(texts) {
      return texts.map((text) => (text.toLowerCase().includes(word) ? [0, 1, 0] : [1, 0, 0.1]));
    },
  };
}

/** What {@link describeVectorBackend} needs: a new, empty backend per call, and how its messages name it. */
export interface VectorSuiteOptions {
  make: () => Promise<VectorCapableIndex>;
  /** The index location its error messages name (`:memory:`, a file path, a database URL). */
  location: string;
}

/**
 * The shared suite of the vector side of a backend ({@link VectorCapableIndex}) driven by
 * `withRetrieval`: embedding after each ingest (batches, reuse by content hash, resume after a
 * failed call), model and dimension checks, KNN with the filters inside the query, hybrid fusion,
 * the query cache, the BM25 fallback and reranking. Each test makes its backend and closes it.
 *
 * @example
 * describeVectorBackend('sqlite in memory', { make: async () => createSqliteIndex({ path: ':memory:' }), location: ':memory:' });
 */
export function describeVectorBackend(name: string, { make, location }: VectorSuiteOptions): void {
  describe(`VectorBackend contract: ${name}`, () => {
    describe('withRetrieval without an embedder', () => {
      it('makes the plain index refuse vector and hybrid modes with the fix', async () => {
        const index = await make();
        await index.ingest(docs());
        await expect(index.search('lease', { k: 2, mode: 'vector' })).rejects.toThrow(
          'Atlas: search mode "vector" needs an embedding model: open the index with withRetrieval(index, { embedder }) (CLI: --embed SPEC or ATLAS_EMBED), or use mode bm25.',
        );
        expect((await index.search('lease', { k: 2, mode: 'bm25' })).map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1']);
        await index.close();
      });
    });

    describe('withRetrieval: embedding on ingest', () => {
      it('embeds each chunk once, in batches of maxBatch, and records model and dimensions', async () => {
        const embedder = createRecordingEmbedder(createHashEmbedder({ dimensions: 32 }), { maxBatch: 3 });
        const progress: string[] = [];
        const index = withRetrieval(await make(), { embedder, onEmbedProgress: (step) => progress.push(`${step.embedded}/${step.total}`) });
        const report = await index.ingest(docs());
        expect(report.vectors).toEqual({ model: 'hash:32', dimensions: 32, embedded: 4, reused: 0, calls: 2, vectors: 4 });
        expect(embedder.calls()).toEqual([
          ['Doc leases\n\nA lease expires after thirty seconds.', 'Doc leases > Renewal\n\nWorkers renew their lease with a heartbeat.', 'Doc payloads\n\nPayload limits: max_payload_kb is 512.'],
          ['Doc vault\n\nLease secrets rotate nightly.'],
        ]);
        expect(progress).toEqual(['3/4', '4/4']);
        expect(await index.vectorStatus()).toEqual({ model: 'hash:32', dimensions: 32, vectors: 4, missing: 0 });
        await index.close();
      });

      it('makes no embedding call when nothing changed, and embeds only the changed chunk of an updated document', async () => {
        const embedder = createRecordingEmbedder(createHashEmbedder({ dimensions: 32 }));
        const index = withRetrieval(await make(), { embedder });
        await index.ingest(docs());
        const again = await index.ingest(docs());
        expect(again.unchanged).toEqual(['leases', 'payloads', 'vault']);
        expect(again.vectors).toMatchObject({ embedded: 0, reused: 0, calls: 0, vectors: 4 });
        const changed = docs();
        changed[0] = createTestDoc({ docId: 'leases', sections: ['A lease expires after thirty seconds.', { heading: 'Renewal', text: 'Workers renew leases every ten seconds.' }] });
        const update = await index.ingest(changed);
        expect(update.updated).toEqual(['leases']);
        // The chunk rows of "leases" were replaced: the unchanged first chunk finds its vector by content hash.
        expect(update.vectors).toMatchObject({ embedded: 1, reused: 1, calls: 1, vectors: 4 });
        expect(embedder.calls().slice(1)).toEqual([['Doc leases > Renewal\n\nWorkers renew leases every ten seconds.']]);
        await index.close();
      });

      it('keeps vectors exact through an ingest made without the embedder, and fills the gap at the next one', async () => {
        const embedder = createRecordingEmbedder(createHashEmbedder({ dimensions: 32 }));
        const base = await make();
        await withRetrieval(base, { embedder }).ingest(docs());
        await base.ingest(docs().slice(0, 2).concat(createTestDoc({ docId: 'new', sections: ['Brand new page.'] })));
        expect(await base.vectorStatus()).toEqual({ model: 'hash:32', dimensions: 32, vectors: 3, missing: 1 });
        const report = await withRetrieval(base, { embedder }).ingest(docs().slice(0, 2).concat(createTestDoc({ docId: 'new', sections: ['Brand new page.'] })));
        expect(report.vectors).toMatchObject({ embedded: 1, reused: 0, vectors: 4 });
        expect(embedder.calls().at(-1)).toEqual(['Doc new\n\nBrand new page.']);
        await base.close();
      });

      it('refuses another model at ingest and at search, naming both and the fix', async () => {
        const base = await make();
        await withRetrieval(base, { embedder: createHashEmbedder({ dimensions: 32 }) }).ingest(docs());
        const other = withRetrieval(base, { embedder: createHashEmbedder({ dimensions: 16 }) });
        await expect(other.ingest(docs())).rejects.toThrow(
          `Atlas: the index at ${location} holds vectors of hash:32, not hash:16. Pass --embed hash:32 (or set ATLAS_EMBED=hash:32), or rebuild the index with the new model: atlas ingest <docs-dir> --db ${location} --rebuild --embed hash:16`,
        );
        await expect(other.search('lease', { k: 2 })).rejects.toThrow(
          `Atlas: the index at ${location} holds vectors of hash:32, not hash:16. Pass --embed hash:32 (or set ATLAS_EMBED=hash:32), or rebuild the index with the new model: atlas ingest <docs-dir> --db ${location} --rebuild --embed hash:16`,
        );
        await base.close();
      });

      it('refuses a model that changes its dimensions', async () => {
        let dimensions = 3;
        const shifting: Embedder = { model: 'shifting', maxBatch: 1, embed: async (texts) => texts.map(() => new Array(dimensions).fill(0.5)) };
        const index = withRetrieval(await make(), { embedder: shifting });
        await index.ingest(docs().slice(0, 1));
        dimensions = 4;
        await expect(index.ingest(docs())).rejects.toThrow(
          `Atlas: the embedding model shifting returned vectors of 4 dimensions, but the index at ${location} holds 3. Use the model the index was built with, or rebuild: atlas ingest <docs-dir> --db ${location} --rebuild --embed shifting`,
        );
        await index.close();
      });

      it('keeps the batches done when a call fails, says how to resume, and resumes', async () => {
        let failAt = 2;
        let call = 0;
        const flaky: Embedder = {
          model: 'flaky',
          maxBatch: 1,
          embed: async (texts) => {
            call += 1;
            if (call === failAt) throw new Error('connection reset');
            return texts.map(() => [1, 0]);
          },
        };
        const index = withRetrieval(await make(), { embedder: flaky });
        await expect(index.ingest(docs())).rejects.toThrow(
          'Atlas: embedding with flaky failed after 1 of 4 texts: connection reset. The text index and the 1 vectors made are kept; run the same atlas ingest --embed flaky again to embed the rest.',
        );
        expect(await index.vectorStatus()).toEqual({ model: 'flaky', dimensions: 2, vectors: 1, missing: 3 });
        failAt = 0;
        const report = await index.ingest(docs());
        expect(report.vectors).toMatchObject({ embedded: 3, reused: 0, vectors: 4 });
        await index.close();
      });
    });

    describe('withRetrieval: search modes', () => {
      it('vector mode finds the k nearest among the chunks the filter lets through (filter before the cut)', async () => {
        const index = withRetrieval(await make(), { embedder: axisEmbedder('payload') });
        await index.ingest(docs());
        // Every chunk but the payload one lies on the query's axis; a 3.x filter must still find k = 1 inside it.
        const near = await index.search('lease', { k: 1, mode: 'vector' });
        expect(near.map((hit) => hit.chunkId)).toEqual(['leases#0']);
        expect(near[0]!.score).toBeCloseTo(1, 6);
        const versioned = await index.search('payload', { k: 1, mode: 'vector', filter: { version: '2.x' } });
        expect(versioned.map((hit) => hit.chunkId)).toEqual(['leases#0']);
        const all = await index.search('lease', { k: 10, mode: 'vector' });
        // The admins-only page is hidden from an anonymous search; a principal in admins sees it.
        expect(all.map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1', 'payloads#0']);
        const admin = await index.search('lease', { k: 10, mode: 'vector', filter: { principal: { groups: ['admins'] } } });
        expect(admin.map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1', 'vault#0', 'payloads#0']);
        const labelled = await index.search('lease', { k: 10, mode: 'vector', filter: { labels: { acl: 'nobody' }, principal: { groups: ['admins'] } } });
        expect(labelled.map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1', 'payloads#0']);
        await index.close();
      });

      it('hybrid (the default with an embedder) fuses both rankings; scores stay on the BM25 scale', async () => {
        const base = await make();
        const index = withRetrieval(base, { embedder: axisEmbedder('heartbeat') });
        await index.ingest(docs());
        const bm25 = await base.search('heartbeat', { k: 5 });
        expect(bm25.map((hit) => hit.chunkId)).toEqual(['leases#1']);
        const vector = await index.search('heartbeat', { k: 5, mode: 'vector' });
        expect(vector.map((hit) => hit.chunkId)).toEqual(['leases#1', 'leases#0', 'payloads#0']);
        const hybrid = await index.search('heartbeat', { k: 5 });
        expect(hybrid.map((hit) => hit.chunkId)).toEqual(['leases#1', 'leases#0', 'payloads#0']);
        expect(hybrid[0]!.score).toBeCloseTo(bm25[0]!.score, 9);
        // 2/61 for the first (first in both), 1/62 and 1/63 for the vector-only ones, scaled to the BM25 best.
        expect(hybrid[1]!.score / hybrid[0]!.score).toBeCloseTo(61 / 124, 9);
        expect(hybrid[2]!.score / hybrid[0]!.score).toBeCloseTo(61 / 126, 9);
        expect(hybrid[0]!.snippet).toBe('Workers renew their lease with a heartbeat.');
        await index.close();
      });

      it('hybrid keeps the best BM25 hit first when the query names an identifier', async () => {
        const base = await make();
        const index = withRetrieval(base, { embedder: axisEmbedder('renew') });
        await index.ingest(docs());
        // Words only: BM25 [payloads#0, leases#1], vector [leases#1, leases#0, payloads#0]: fusion puts leases#1 first.
        expect((await base.search('payload kb renew', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['payloads#0', 'leases#1']);
        expect((await index.search('payload kb renew', { k: 3 })).map((hit) => hit.chunkId)).toEqual(['leases#1', 'payloads#0', 'leases#0']);
        // Naming max_payload_kb: the chunk BM25 ranks first for the name stays first.
        expect((await base.search('max_payload_kb renew', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['payloads#0', 'leases#1']);
        expect((await index.search('max_payload_kb renew', { k: 3 })).map((hit) => hit.chunkId)).toEqual(['payloads#0', 'leases#1', 'leases#0']);
        await index.close();
      });

      it('caches the query vector: paging through one query embeds it once', async () => {
        const embedder = createRecordingEmbedder(createHashEmbedder({ dimensions: 16 }));
        const index = withRetrieval(await make(), { embedder });
        await index.ingest(docs());
        await index.search('lease', { k: 5 });
        await index.search('lease', { k: 10 });
        expect(embedder.calls().slice(1)).toEqual([['lease']]);
        await index.close();
      });

      it('falls back to BM25 by default when the index has no vectors, and refuses an explicit vector mode', async () => {
        const base = await make();
        await base.ingest(docs());
        const index = withRetrieval(base, { embedder: createHashEmbedder({ dimensions: 16 }) });
        expect((await index.search('lease', { k: 2 })).map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1']);
        await expect(index.search('lease', { k: 2, mode: 'hybrid' })).rejects.toThrow(
          'Atlas: the index has no vectors, so search mode "hybrid" has nothing to search. Use --mode bm25, or add vectors first: atlas ingest <docs-dir> --embed hash:16',
        );
        await expect(withRetrieval(base, { mode: 'vector' }).search('lease', { k: 2 })).rejects.toThrow(
          'Atlas: search mode "vector" needs an embedding model. Pass --embed <spec> (or set ATLAS_EMBED) after an ingest with it, or use --mode bm25.',
        );
        expect(() => withRetrieval(base, { mode: 'semantic' as never })).toThrow('Atlas: unknown search mode "semantic". Use one of: bm25, vector, hybrid.');
        await base.close();
      });
    });

    describe('withRetrieval: reranking', () => {
      it('reranks the top candidates before the cut, and keeps the best score on the first-stage scale', async () => {
        const base = await make();
        await base.ingest(docs());
        const reranker = createScriptedReranker((_query, document) => (document.includes('heartbeat') ? 0.9 : 0.1));
        const index = withRetrieval(base, { reranker, rerankDepth: 5 });
        const bm25 = await base.search('lease', { k: 5 });
        expect(bm25.map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1']);
        const hits = await index.search('lease', { k: 1 });
        expect(hits.map((hit) => hit.chunkId)).toEqual(['leases#1']);
        expect(hits[0]!.score).toBeCloseTo(bm25[0]!.score, 9);
        expect(reranker.calls()).toEqual([
          { query: 'lease', documents: ['Doc leases\n\nA lease expires after thirty seconds.', 'Doc leases > Renewal\n\nWorkers renew their lease with a heartbeat.'] },
        ]);
        await base.close();
      });
    });
  });
}
