import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSearch } from './sqlite-search.ts';
import { createStatementCache, type StatementCache } from '../sql-rows.ts';
import { createSqliteIndex, type SqliteIndex } from './sqlite.ts';
import { createTestDoc } from '../test-docs.ts';
import { buildVersionedIndex, versionedDocs } from '../../testing/versioned-index.ts';
import { DEFAULT_TOKENIZER } from '../analysis/tokenize.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-search-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('createSqliteSearch in a snapshot', () => {
  it('answers from one version of the index while another connection rewrites the postings mid-search', async () => {
    const path = await buildVersionedIndex(join(scratch, 'snapshot.db'));
    const index = createSqliteIndex({ path, readonly: true });
    const expected = (await index.search('retries back off jobs', { k: 5, filter: { version: '3.x' } })).map((hit) => [hit.chunkId, hit.score]);
    expect(expected.length).toBe(5);
    await index.close();
    // The writer as an ingest opens the file (WAL: readers go on reading from their snapshot).
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    const reader = new Database(path, { readonly: true });
    const real = createStatementCache(reader);
    let rewritten = false;
    // The first read of postings rows: another connection deletes them all first (as an ingest rewriting them would).
    const statements: StatementCache = {
      get(sql) {
        if (!rewritten && sql.includes('FROM postings WHERE id')) {
          rewritten = true;
          writer.exec('DELETE FROM postings');
        }
        return real.get(sql);
      },
    };
    const inSnapshot = reader.transaction((work: () => unknown) => work());
    const search = createSqliteSearch(statements, [2, 3, 0.5, 1, 1], DEFAULT_TOKENIZER, {
      state: () => ({ version: 'v1', restricted: false }),
      snapshot: <T>(work: () => T) => inSnapshot(work) as T,
    });
    const hits = await search('retries back off jobs', { k: 5, filter: { version: '3.x' } });
    expect(rewritten).toBe(true);
    expect(hits.map((hit) => [hit.chunkId, hit.score])).toEqual(expected);
    expect(writer.prepare('SELECT count(*) FROM postings').pluck().get()).toBe(0);
    reader.close();
    writer.close();
  });
});

describe('createSqliteIndex filter verdicts across ingests', () => {
  it('finds a page re-added under new ids after the index version came back to an earlier value', async () => {
    const index = createSqliteIndex({ path: join(scratch, 'readded.db') });
    const docs = versionedDocs();
    const first = await index.ingest(docs);
    // Pages 256 and up hold ids 769-900, in the last range of 256 ids (768-1023): these searches
    // check enough of its chunks against the filter for the range to be read whole, and remembered.
    for (const n of [256, 259, 262, 265]) {
      expect((await index.search(String(n), { k: 3, filter: { version: '3.x' } })).map((hit) => hit.docId)).toEqual([`page-${n}`, `page-${n}`, `page-${n}`]);
    }
    // Page 100 (3.x) removed, then added again: its chunks get ids 901-903, in that range; the
    // content, and so the index version, is the first one again.
    await index.ingest(docs.filter((doc) => doc.docId !== 'page-100'));
    const restored = await index.ingest(docs);
    expect(restored.indexVersion).toBe(first.indexVersion);
    expect((await index.getChunk('page-100#0'))?.docId).toBe('page-100');
    const hits = await index.search('100', { k: 3, filter: { version: '3.x' } });
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual(['page-100#0', 'page-100#1', 'page-100#2']);
    await index.close();
  });

  it('finds it too when another connection did the ingests (a server reading while atlas ingest runs)', async () => {
    const path = join(scratch, 'readded-elsewhere.db');
    const writer = createSqliteIndex({ path });
    const docs = versionedDocs();
    const first = await writer.ingest(docs);
    const reader = createSqliteIndex({ path, readonly: true });
    for (const n of [256, 259, 262, 265]) expect(await reader.search(String(n), { k: 3, filter: { version: '3.x' } })).toHaveLength(3);
    await writer.ingest(docs.filter((doc) => doc.docId !== 'page-100'));
    expect((await writer.ingest(docs)).indexVersion).toBe(first.indexVersion);
    const hits = await reader.search('100', { k: 3, filter: { version: '3.x' } });
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual(['page-100#0', 'page-100#1', 'page-100#2']);
    await reader.close();
    await writer.close();
  });
});

describe('createSqliteIndex postings rows kept between searches', () => {
  // Every page's third section holds `hold` once; page 299 rewritten to hold it three times
  // ranks first, from its new chunk at the end of the term's postings (its last row rewritten).
  const rewritten = () =>
    versionedDocs().map((doc) =>
      doc.docId === 'page-299' ? createTestDoc({ docId: 'page-299', appliesTo: doc.appliesTo, sections: ['Retries back off 299.', 'Jobs run 299 times.', 'Queues hold hold hold job 299.'] }) : doc,
    );
  const firstFor = async (index: SqliteIndex, query: string) => (await index.search(query, { k: 2 })).map((hit) => hit.chunkId);

  it('reads the rows of the data it searches after its own ingest changed them', async () => {
    const index = createSqliteIndex({ path: join(scratch, 'rows-own.db') });
    await index.ingest(versionedDocs());
    expect(await firstFor(index, 'hold')).toEqual(['page-0#2', 'page-1#2']);
    // Again (its rows kept now), then after the ingest that rewrites them.
    expect(await firstFor(index, 'hold')).toEqual(['page-0#2', 'page-1#2']);
    await index.ingest(rewritten());
    expect(await firstFor(index, 'hold')).toEqual(['page-299#2', 'page-0#2']);
    await index.close();
  });

  it('reads them again after another connection ingests', async () => {
    const path = join(scratch, 'rows-elsewhere.db');
    const writer = createSqliteIndex({ path });
    await writer.ingest(versionedDocs());
    const reader = createSqliteIndex({ path, readonly: true });
    expect(await firstFor(reader, 'hold')).toEqual(['page-0#2', 'page-1#2']);
    await writer.ingest(rewritten());
    expect(await firstFor(reader, 'hold')).toEqual(['page-299#2', 'page-0#2']);
    await reader.close();
    await writer.close();
  });
});
