import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSchemas, testPostgres } from '../../testing/postgres-server.ts';
import { createSqliteIndex } from '../sqlite/sqlite.ts';
import { createTestDoc } from '../test-docs.ts';
import type { IndexBackend } from '../types.ts';
import { createPostgresIndex } from './postgres.ts';

const server = testPostgres(process.env);

/**
 * Page `n` of 128 chunks, each holding `common`: with ids from 1, page n's chunks are block n of
 * the term (128 postings a block, 16 blocks a row).
 */
const page = (n: number, tag = '', docId = `page-${n}${tag}`) =>
  createTestDoc({
    docId,
    sections: Array.from({ length: 128 }, (_, at) => `common word${(n * 128 + at) % 97} ${'filler '.repeat((n + at) % 5)}${tag}`),
  });

/** Every chunk holding `common`, ranked, and its document frequency. */
async function everything(index: IndexBackend): Promise<{ hits: Array<[string, number]>; frequencies: unknown }> {
  const hits = await index.search('common', { k: 10_000 });
  return { hits: hits.map((hit) => [hit.chunkId, hit.score]), frequencies: await index.documentFrequencies?.(['common', 'word5', 'absent']) };
}

describe.skipIf(server.url === undefined)(`PostgreSQL postings written by the engine${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'pgpostings');
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-pg-postings-'));
  afterAll(async () => {
    await schemas.dropAll();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('removes a whole last row and appends to the row before it, as SQLite does (terms of three rows)', async () => {
    // 40 pages: `common` in 40 blocks, rows 0 (blocks 0-15), 1 (16-31) and 2 (32-39).
    const pages = Array.from({ length: 40 }, (_, n) => page(n));
    // Page 0 (row 0) and pages 32-39 (all of row 2) removed: row 1, untouched, becomes the last
    // row, and the new pages are appended there; page 5 changes in place.
    const next = [...pages.slice(1, 32).map((doc, n) => (n === 4 ? page(5, ' changed', 'page-5') : doc)), page(40, ' new'), page(41, ' new')];
    const sqlite = createSqliteIndex({ path: join(scratch, 'rows.db') });
    const postgres = createPostgresIndex({ url: schemas.fresh() });
    try {
      for (const index of [sqlite, postgres]) await index.ingest(pages);
      const before = await everything(postgres);
      expect(before.hits).toHaveLength(40 * 128);
      expect(before).toEqual(await everything(sqlite));
      for (const index of [sqlite, postgres]) expect(await index.ingest(next)).toMatchObject({ removed: ['page-0', 'page-32', 'page-33', 'page-34', 'page-35', 'page-36', 'page-37', 'page-38', 'page-39'], updated: ['page-5'], chunks: 33 * 128 });
      const after = await everything(postgres);
      expect(after.hits).toHaveLength(33 * 128);
      expect(after.frequencies).toEqual({ chunks: 33 * 128, frequencies: [33 * 128, 44, 0] });
      expect(after).toEqual(await everything(sqlite));
      const top = async (index: IndexBackend, query: string) => (await index.search(query, { k: 300 })).map((hit) => [hit.chunkId, hit.score]);
      for (const query of ['new', 'changed', 'word5 filler']) {
        const expected = await top(sqlite, query);
        expect(expected.length).toBeGreaterThan(40);
        expect(await top(postgres, query)).toEqual(expected);
      }
    } finally {
      await Promise.all([sqlite.close(), postgres.close()]);
    }
  }, 120_000);

  it('serves what another process ingested from the next search on: terms kept for an older generation are read again', async () => {
    const url = schemas.fresh();
    const [reader, writer] = [createPostgresIndex({ url }), createPostgresIndex({ url })];
    const lease = createTestDoc({ docId: 'lease', sections: ['A worker holds a lease.'] });
    const renewal = createTestDoc({ docId: 'renewal', sections: ['Renewal extends a lease.'] });
    try {
      await writer.ingest([lease]);
      const ids = async (query: string) => (await reader.search(query, { k: 5 })).map((hit) => hit.chunkId);
      // Kept by the reader: `lease` held by one chunk, `renewal` held by none.
      expect(await ids('lease')).toEqual(['lease#0']);
      expect(await ids('renewal')).toEqual([]);
      await writer.ingest([lease, renewal]);
      expect(await ids('renewal')).toEqual(['renewal#0']);
      expect(await ids('lease')).toEqual(['lease#0', 'renewal#0']);
      expect((await reader.search('lease', { k: 5 })).map((hit) => hit.score)).toEqual((await writer.search('lease', { k: 5 })).map((hit) => hit.score));
      // Removed by the writer: the reader's kept terms name a chunk that is gone.
      await writer.ingest([renewal]);
      expect(await ids('lease')).toEqual(['renewal#0']);
      expect(await ids('worker')).toEqual([]);
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });
});
