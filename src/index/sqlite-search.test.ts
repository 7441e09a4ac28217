import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSearch } from './sqlite-search.ts';
import { createStatementCache, type StatementCache } from './sqlite-rows.ts';
import { createSqliteIndex } from './sqlite.ts';
import { buildVersionedIndex } from '../testing/versioned-index.ts';
import { DEFAULT_TOKENIZER } from './tokenize.ts';

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
        if (!rewritten && sql.includes('FROM postings WHERE id >= ?')) {
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
