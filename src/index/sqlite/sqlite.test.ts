import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { describeIndexBackend } from '../contract/backend-suite.ts';
import { createSqliteIndex, type ColumnWeights, type SqliteIndex } from './sqlite.ts';
import { createTestDoc } from '../test-docs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-index-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let fileCount = 0;
const freshPath = (): string => join(scratch, `db-${(fileCount += 1)}`, 'index.db');

describeIndexBackend('sqlite in memory', async () => createSqliteIndex({ path: ':memory:' }));
describeIndexBackend('sqlite file (WAL)', async () => createSqliteIndex({ path: freshPath() }));

const retries = createTestDoc({ docId: 'retries', sections: ['Failed jobs are retried with backoff.'] });
const rebuildHint = (path: string) => `Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`;

/** Captures the error a synchronous call throws. */
function thrown(run: () => unknown): AtlasError {
  try {
    run();
  } catch (error) {
    if (error instanceof AtlasError) return error;
    throw error;
  }
  throw new Error('expected an AtlasError');
}

describe('createSqliteIndex on disk', () => {
  let path: string;
  let open: SqliteIndex[];
  const openIndex = (options: Omit<Parameters<typeof createSqliteIndex>[0], 'path'> = {}) => {
    const index = createSqliteIndex({ path, ...options });
    open.push(index);
    return index;
  };
  beforeEach(() => {
    path = freshPath();
    open = [];
  });
  afterEach(async () => {
    for (const index of open) await index.close();
  });

  it('creates the folder, uses WAL while writing, leaves one self-contained file and keeps content across reopening', async () => {
    const first = openIndex();
    const report = await first.ingest([retries]);
    const during = new Database(path, { readonly: true });
    expect(during.pragma('journal_mode', { simple: true })).toBe('wal');
    during.close();
    await first.close();
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(raw.prepare(`SELECT value FROM meta WHERE key = 'schemaVersion'`).pluck().get()).toBe('6');
    raw.close();
    const second = openIndex();
    expect(await second.indexVersion()).toBe(report.indexVersion);
    expect((await second.search('backoff', { k: 1 })).map((hit) => hit.chunkId)).toEqual(['retries#0']);
  });

  it('records the docs root, keeps it across reopening, and reads it in a read-only index', async () => {
    const path = freshPath();
    const index = createSqliteIndex({ path });
    expect(await index.docsRoot()).toBeUndefined();
    await index.ingest([retries]);
    await index.recordDocsRoot('/home/me/site/docs');
    const version = await index.indexVersion();
    await index.close();
    const reader = createSqliteIndex({ path, readonly: true });
    expect([await reader.docsRoot(), await reader.indexVersion()]).toEqual(['/home/me/site/docs', version]);
    await reader.close();
  });

  it('refuses an index with another schema version, with the exact message', async () => {
    await openIndex().close();
    const raw = new Database(path);
    raw.prepare(`UPDATE meta SET value = '7' WHERE key = 'schemaVersion'`).run();
    raw.close();
    const error = thrown(() => createSqliteIndex({ path }));
    expect(error.code).toBe('index-schema');
    expect(error.message).toBe(
      `Atlas: the index at ${path} has schema version 7 but this Atlas needs 6. ${rebuildHint(path)}`,
    );
    const rebuilt = openIndex({ rebuild: true });
    expect(await rebuilt.stats()).toEqual({ docs: 0, chunks: 0 });
  });

  // Schema 3 kept a clause of Chinese as one token; schema 4 each Korean word with its particle
  // (수도 "capital" is written 수도이자 "the capital and"); schema 5 cut a Hindi word at each vowel
  // sign (किला "fort" as क and ल, which every word of those letters holds). Refused; found once rebuilt.
  // A second page shares no word with the query (it is "black art, tomorrow" in Hindi, all of क and ल).
  it.each([
    ['3', 'gongs', '锣鼓经是戏曲里面常用的打击乐记谱方法。', '打击乐'],
    ['4', 'seoul', '서울특별시는 대한민국의 수도이자 최대 도시이다.', '수도'],
    ['5', 'delhi', 'मुगल सम्राट शाहजहाँ ने लाल किला बनवाया था।', 'किला'],
  ])('refuses an index of schema %s, whose tokens missed words of its language, and finds the text once rebuilt', async (version, docId, text, query) => {
    await openIndex().close();
    const raw = new Database(path);
    raw.prepare(`UPDATE meta SET value = ? WHERE key = 'schemaVersion'`).run(version);
    raw.close();
    expect(thrown(() => createSqliteIndex({ path })).message).toBe(
      `Atlas: the index at ${path} has schema version ${version} but this Atlas needs 6. ${rebuildHint(path)}`,
    );
    const rebuilt = openIndex({ rebuild: true });
    await rebuilt.ingest([createTestDoc({ docId, sections: [text] }), createTestDoc({ docId: 'other', sections: ['काला कला, कल काला कला।'] })]);
    expect((await rebuilt.search(query, { k: 5 })).map((hit) => hit.chunkId)).toEqual([`${docId}#0`]);
  });

  it('refuses an index built before heading paths and definitions were indexed (schema 1)', async () => {
    await openIndex().close();
    const raw = new Database(path);
    raw.prepare(`UPDATE meta SET value = '1' WHERE key = 'schemaVersion'`).run();
    raw.close();
    expect(thrown(() => createSqliteIndex({ path })).message).toBe(
      `Atlas: the index at ${path} has schema version 1 but this Atlas needs 6. ${rebuildHint(path)}`,
    );
    const rebuilt = openIndex({ rebuild: true });
    await rebuilt.ingest([retries]);
    expect((await rebuilt.search('backoff', { k: 1 }))[0]?.headingPath).toEqual(['Doc retries']);
  });

  it('refuses a database that is not an Atlas index, or not a database', async () => {
    await openIndex({ rebuild: true }).close();
    const raw = new Database(path);
    raw.exec('DROP TABLE meta');
    raw.exec('CREATE TABLE other (x)');
    raw.close();
    const refusal = `Atlas: the file at ${path} is an SQLite database with tables docs, chunks, chunk_labels, postings_terms, postings, postings_totals, definitions_fts, definitions_fts_data and 4 more, not an Atlas index, and Atlas will not write to it. Choose another --db path for the index, e.g. --db .atlas/index.db`;
    expect(thrown(() => createSqliteIndex({ path })).message).toBe(refusal);
    // Rebuilding over it would drop the other application's tables: refused too, and nothing is written.
    expect(thrown(() => createSqliteIndex({ path, rebuild: true })).message).toBe(refusal);
    expect(thrown(() => createSqliteIndex({ path, readonly: true })).message).toBe(refusal);
    const junk = join(scratch, 'junk.db');
    writeFileSync(junk, 'this is not sqlite, just some text that is long enough to have a header'.repeat(20));
    expect(thrown(() => createSqliteIndex({ path: junk })).message).toBe(
      `Atlas: the file at ${junk} is not an SQLite database (SQLITE_NOTADB). Pass another --db path, or replace the file with a new index: atlas ingest <docs-dir> --db ${junk} --rebuild`,
    );
  });

  it('keeps the tokenizer the index was built with', async () => {
    const built = openIndex({ tokenizer: { porter: false } });
    await built.ingest([retries]);
    await built.close();
    expect(openIndex().tokenizer).toEqual({ porter: false, identifiers: true });
    expect(thrown(() => createSqliteIndex({ path, tokenizer: { porter: true } })).message).toBe(
      `Atlas: the index at ${path} was built with tokenizer {"porter":false,"identifiers":true} but {"porter":true,"identifiers":true} was requested. ${rebuildHint(path)}`,
    );
  });

  it('lets an empty index switch tokenizer, and rebuild wipe a full one', async () => {
    const empty = openIndex({ tokenizer: { porter: false } });
    const emptyVersion = await empty.indexVersion();
    await empty.close();
    const switched = openIndex({ tokenizer: { porter: true } });
    expect(switched.tokenizer).toEqual({ porter: true, identifiers: true });
    expect(await switched.indexVersion()).not.toBe(emptyVersion);
    await switched.ingest([retries]);
    await switched.close();
    const rebuilt = openIndex({ rebuild: true, tokenizer: { identifiers: false } });
    expect(rebuilt.tokenizer).toEqual({ porter: true, identifiers: false });
    expect(await rebuilt.stats()).toEqual({ docs: 0, chunks: 0 });
  });
});

describe('createSqliteIndex options and errors', () => {
  const docs = [retries, createTestDoc({ docId: 'retry-policy', sections: ['The retry policy is fixed.'] })];

  it('stems with Porter by default and matches exact words only without it', async () => {
    const stemmed = createSqliteIndex({ path: ':memory:' });
    const exact = createSqliteIndex({ path: ':memory:', tokenizer: { porter: false } });
    await stemmed.ingest(docs);
    await exact.ingest(docs);
    const chunkIds = async (index: SqliteIndex) => (await index.search('retry', { k: 5 })).map((hit) => hit.chunkId).sort();
    expect(await chunkIds(stemmed)).toEqual(['retries#0', 'retry-policy#0']);
    expect(await chunkIds(exact)).toEqual(['retry-policy#0']);
    await stemmed.close();
    await exact.close();
  });

  it('ranks definitions first only with identifier expansions on', async () => {
    const errors = createTestDoc({ docId: 'errors', sections: ['Codes.', { heading: 'ORB-1202 PayloadTooLarge', text: `The payload is over the limit. ${'More words here. '.repeat(30)}` }] });
    const faq = createTestDoc({ docId: 'faq', sections: ['Failed with ORB-1202? ORB-1202 means shrink it.'] });
    const chunkIds = async (tokenizer: { identifiers: boolean }) => {
      const index = createSqliteIndex({ path: ':memory:', tokenizer });
      await index.ingest([errors, faq]);
      const found = (await index.search('ORB-1202', { k: 2 })).map((hit) => hit.chunkId);
      await index.close();
      return found;
    };
    expect(await chunkIds({ identifiers: true })).toEqual(['errors#1', 'faq#0']);
    expect(await chunkIds({ identifiers: false })).toEqual(['faq#0', 'errors#1']);
  });

  it('rejects a k that is not a positive integer', async () => {
    const index = createSqliteIndex({ path: ':memory:' });
    await expect(index.search('retry', { k: 0 })).rejects.toThrow(
      new AtlasError('usage', 'Atlas: k must be a positive integer, got 0. Pass e.g. { k: 5 }.'),
    );
    await index.close();
  });

  it('rejects negative or non-numeric column weights, and unknown columns', () => {
    const error = thrown(() => createSqliteIndex({ path: ':memory:', weights: { heading: -1 } }));
    expect(error.message).toBe('Atlas: the weight of column heading must be a number >= 0, got -1.');
    expect(thrown(() => createSqliteIndex({ path: ':memory:', weights: { headingPath: Number.NaN } })).message).toBe(
      'Atlas: the weight of column headingPath must be a number >= 0, got NaN.',
    );
    expect(thrown(() => createSqliteIndex({ path: ':memory:', weights: { defines: 4 } as never })).message).toBe(
      'Atlas: there is no column weight "defines". The columns are title, heading, headingPath, body, idents.',
    );
  });

  it('weights the heading path as configured', async () => {
    const docs = [
      createTestDoc({ docId: 'in-path', sections: ['Intro.', { heading: 'Rotation', parents: ['Credentials'], text: 'Tokens are replaced monthly by the vault.' }] }),
      createTestDoc({ docId: 'in-body', sections: ['Intro.', { heading: 'Rotation', text: 'Credentials are replaced monthly by the vault.' }] }),
    ];
    const order = async (weights: Partial<ColumnWeights>) => {
      const index = createSqliteIndex({ path: ':memory:', weights });
      await index.ingest(docs);
      const chunkIds = (await index.search('credentials', { k: 5 })).map((hit) => hit.chunkId);
      await index.close();
      return chunkIds;
    };
    const configured = createSqliteIndex({ path: ':memory:', weights: { headingPath: 2 } });
    expect(configured.weights).toEqual({ title: 2, heading: 3, headingPath: 2, body: 1, idents: 1 });
    await configured.close();
    expect(await order({ headingPath: 4 })).toEqual(['in-path#1', 'in-body#1']);
    expect(await order({ headingPath: 0.1 })).toEqual(['in-body#1', 'in-path#1']);
  });

  it('names both files when two documents share an id', async () => {
    const index = createSqliteIndex({ path: ':memory:' });
    const twin = { ...createTestDoc({ docId: 'retries', sections: ['Other.'] }), sourcePath: 'guides/retries.md' };
    await expect(index.ingest([retries, twin])).rejects.toThrow(
      'Atlas: two documents have the id "retries" (retries.md and guides/retries.md); nothing was written to the index. Give each page a unique id in its front matter.',
    );
    await index.close();
  });
});
