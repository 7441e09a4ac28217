import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPages } from '../../corpus/load.ts';
import { parsePagesStream } from '../../corpus/workers/parse-pages.ts';
import type { Doc } from '../../corpus/types.ts';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { ingestItems, ingestPageWorker } from './ingest-items.ts';
import { createDeriveCaches, deriveDoc, type DerivedChunkValues } from './ingest-writer.ts';
import { createSqliteIndex } from './sqlite.ts';
import { DEFAULT_TOKENIZER } from '../analysis/tokenize.ts';
import type { IngestItem } from './ingest-session.ts';
import type { NewTerms } from '../engine/chunk-terms.ts';

const orbit = fileURLToPath(new URL('../../../datasets/orbit/docs', import.meta.url));
const graphile = sharedFolder('corpora/graphile-worker/docs', process.env);

/** The terms of each dictionary, by number, as the pages' NewTerms told them (in order). */
function createTermBook() {
  const books = new Map<string, string[]>();
  return {
    learn(terms: NewTerms) {
      const book = books.get(terms.source) ?? [];
      expect(terms.first).toBe(book.length);
      books.set(terms.source, [...book, ...terms.terms]);
    },
    /** The values with each chunk's term numbers as the terms they stand for. */
    readable(values: readonly DerivedChunkValues[], source: string) {
      const book = books.get(source)!;
      return values.map((value) => ({ ...value, terms: { ...value.terms, ids: [...value.terms.ids].map((id) => book[id]) } }));
    },
  };
}

/** Every page of `folder` parsed by ingest workers only, as ingest items. */
async function workerItems(folder: string, tokenizer = DEFAULT_TOKENIZER, handOver = false): Promise<IngestItem[]> {
  const { sources } = await readPages(folder);
  const items: IngestItem[] = [];
  for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 5, thisThreadParses: false, worker: ingestPageWorker(tokenizer, { handOver }) })) {
    const docs: Doc[] = [];
    const extras: unknown[] = [];
    batch.results.forEach((result, position) => {
      if (!result.ok) return;
      docs.push(result.doc);
      extras.push(batch.extras?.[position]);
    });
    items.push(...ingestItems({ docs, extras }, tokenizer));
  }
  return items;
}

describe('ingestPageWorker', () => {
  it('derives in its workers exactly what the index derives while writing, for Orbit and the real Graphile Worker docs', async () => {
    const folders = [orbit, ...(graphile.present ? [graphile.path] : [])];
    for (const folder of folders) {
      const items = await workerItems(folder);
      expect(items.length).toBeGreaterThan(30);
      expect(items.every((item) => item.derived !== undefined)).toBe(true);
      const caches = createDeriveCaches('test');
      const book = createTermBook();
      for (const item of items) {
        book.learn(item.terms!);
        const local = deriveDoc(item.doc, DEFAULT_TOKENIZER, caches);
        book.learn(local.terms);
        expect(book.readable(item.derived!, item.terms!.source)).toEqual(book.readable(local.values, 'test'));
      }
    }
  });

  it('gives the same search results through ingestStream as ingest() from the same docs, with pages handed over underived', async () => {
    const items = await workerItems(orbit, DEFAULT_TOKENIZER, true);
    // The first page finds the writer short of pages: handed over (it derives it), its terms not numbered by the worker.
    expect(items[0]!.derived).toBeUndefined();
    expect(items[0]!.terms).toBeUndefined();
    const streamed = createSqliteIndex({ path: ':memory:' });
    const whole = createSqliteIndex({ path: ':memory:' });
    async function* source() {
      for (let start = 0; start < items.length; start += 4) yield items.slice(start, start + 4);
    }
    expect(await streamed.ingestStream(source())).toEqual(await whole.ingest(items.map((item) => item.doc)));
    for (const query of ['ORB-1202 payload too large', 'max_payload_kb', 'retry backoff', '--concurrency flag']) {
      expect(await streamed.search(query, { k: 10 })).toEqual(await whole.search(query, { k: 10 }));
    }
    await Promise.all([streamed.close(), whole.close()]);
  });

  it('re-ingests a changed page after unchanged ones, whose terms its numbers refer to', async () => {
    const index = createSqliteIndex({ path: ':memory:' });
    const fresh = createSqliteIndex({ path: ':memory:' });
    async function* source(items: IngestItem[]) {
      yield items;
    }
    await index.ingestStream(source(await workerItems(orbit)));
    const again = await workerItems(orbit);
    const last = again[again.length - 1]!;
    // Same content, another hash: only the last page is written again, with the new worker's numbers.
    again[again.length - 1] = { ...last, doc: { ...last.doc, contentHash: 'changed' } };
    const report = await index.ingestStream(source(again));
    expect(report.updated).toEqual([last.doc.docId]);
    expect(report.unchanged.length).toBe(again.length - 1);
    await fresh.ingestStream(source(again));
    for (const query of ['ORB-1202 payload too large', 'retry backoff', last.doc.title]) {
      expect(await index.search(query, { k: 10 })).toEqual(await fresh.search(query, { k: 10 }));
    }
    await Promise.all([index.close(), fresh.close()]);
  });

  it('leaves every page to its worker: the writing thread parses none while the worker runs', async () => {
    const { sources } = await readPages(orbit);
    const batches: boolean[] = [];
    // No thisThreadParses in the options: the PageWorker's own setting decides.
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 5, worker: ingestPageWorker(DEFAULT_TOKENIZER) })) {
      batches.push(batch.extras !== undefined);
    }
    expect(batches.length).toBe(Math.ceil(sources.length / 5));
    expect(batches.every((byWorker) => byWorker)).toBe(true);
  });

  it('leaves values derived with other settings to the index', () => {
    const doc = { docId: 'a', chunks: [{}] } as unknown as Doc;
    const values = [{ headingPathJson: '[]', labelsJson: '{}', definitionsJson: '', definitionKeys: '', terms: { ids: new Uint32Array([0]), counts: new Uint32Array(5), length: 1 } }];
    const terms = { source: 'worker-1', first: 0, terms: ['a'] };
    const plain = { ...DEFAULT_TOKENIZER, identifiers: false };
    // Values that do not fit are left out, the terms their dictionary numbered are kept.
    expect(ingestItems({ docs: [doc], extras: [{ tag: 'identifiers=true', values, terms }] }, plain)).toEqual([{ doc, terms }]);
    expect(ingestItems({ docs: [doc], extras: [{ tag: 'identifiers=false', values, terms }] }, plain)).toEqual([{ doc, derived: values, terms }]);
    expect(ingestItems({ docs: [doc], extras: [{ tag: 'identifiers=false', values: [], terms }] }, plain)).toEqual([{ doc, terms }]);
    expect(ingestItems({ docs: [doc], extras: [{ tag: 'identifiers=false', values }] }, plain)).toEqual([{ doc }]);
    expect(ingestItems({ docs: [doc] }, plain)).toEqual([{ doc }]);
  });
});
