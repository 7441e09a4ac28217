import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../corpus/load.ts';
import type { Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { readPostings } from '../engine/postings-codec.ts';
import { decodeSkips } from '../engine/postings-skips.ts';
import { rowIdOf } from '../engine/postings-store.ts';
import { createSqliteIndex } from './sqlite.ts';
import { createTestDoc } from '../test-docs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-stream-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(scratch, `index-${(files += 1)}.db`);
const orbit = fileURLToPath(new URL('../../../datasets/orbit/docs', import.meta.url));

/** The docs in batches of `size`, as an async source. */
async function* batches(docs: readonly Doc[], size: number): AsyncGenerator<Doc[]> {
  for (let start = 0; start < docs.length; start += size) yield docs.slice(start, start + size);
}

/** Each term of the postings store with its postings in order (whatever its term id and block keys). */
function postingsOf(db: Database.Database): unknown {
  const stored = db.prepare('SELECT data FROM postings WHERE id = ?').pluck();
  return (db.prepare('SELECT term, id, df, skips FROM postings_terms ORDER BY term').all() as Array<{ term: string; id: number; df: number; skips: Buffer }>).map(
    (row) => ({
      term: row.term,
      df: row.df,
      postings: decodeSkips(row.skips).flatMap((block) => {
        const bytes = stored.get(rowIdOf(row.id, block.key)) as Uint8Array;
        return readPostings(bytes.subarray(block.offset, block.offset + block.length));
      }),
    }),
  );
}

/** Every row of every ordinary table, the postings of every term, and what the definitions table finds for each word of the corpus. */
function dump(path: string, words: string[]): unknown {
  const db = new Database(path, { readonly: true });
  const rows = (sql: string) => db.prepare(sql).all();
  const result = {
    docs: rows('SELECT * FROM docs ORDER BY doc_id'),
    chunks: rows('SELECT * FROM chunks ORDER BY id'),
    labels: rows('SELECT * FROM chunk_labels ORDER BY chunk_id, name, value'),
    meta: rows('SELECT * FROM meta ORDER BY key'),
    indexes: rows("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"),
    postings: postingsOf(db),
    totals: rows('SELECT chunks, tokens FROM postings_totals'),
    definitions: words.map((word) => db.prepare('SELECT rowid FROM definitions_fts WHERE definitions_fts MATCH ? ORDER BY rowid').pluck().all(`"${word}"`)),
  };
  db.close();
  return result;
}

const wordsOf = (docs: readonly Doc[]): string[] => [
  ...new Set(docs.flatMap((doc) => doc.chunks.flatMap((chunk) => `${chunk.heading} ${chunk.text}`.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []))),
];

/** 21 docs of 100 chunks: 2,100 chunks, a bulk load into an empty index. */
const manyDocs = Array.from({ length: 21 }, (_, n) =>
  createTestDoc({
    docId: `page-${n}`,
    appliesTo: ['2.x', '3.x', 'all'][n % 3]!,
    labels: n % 2 === 0 ? { team: 'core' } : {},
    sections: Array.from({ length: 100 }, (_, ord) => (ord === 7 ? `- \`max_retries_${n}\`: how often pelicans retry.` : `Section ${ord} of page ${n} talks about weather.`)),
  }),
);

describe('ingestStream', () => {
  it('writes the same rows as ingest() for the Orbit corpus, whatever the batches', async () => {
    const { docs } = await loadCorpus(orbit);
    const words = wordsOf(docs);
    const arrayPath = newPath();
    const whole = createSqliteIndex({ path: arrayPath });
    const expected = await whole.ingest(docs);
    await whole.close();
    for (const size of [1, 7]) {
      const path = newPath();
      const streamed = createSqliteIndex({ path });
      expect(await streamed.ingestStream(batches(docs, size))).toEqual(expected);
      await streamed.close();
      expect(dump(path, words)).toEqual(dump(arrayPath, words));
    }
    expect(expected).toMatchObject({ added: docs.map((doc) => doc.docId).sort(), chunks: docs.reduce((sum, doc) => sum + doc.chunks.length, 0) });
  });

  it('writes the same rows as ingest() for a bulk load that starts in a later batch, then updates and removes incrementally', async () => {
    const words = [...wordsOf(manyDocs), 'giraffes', ...manyDocs.map((_, n) => `maxretries${n}`)];
    const small = createTestDoc({ docId: 'small', labels: { team: 'docs' }, sections: ['Zebras graze.', 'Set `max_retries_x` here.'] });
    const paths = [newPath(), newPath()];
    const [arrayIndex, streamIndex] = paths.map((path) => createSqliteIndex({ path }));
    // Batches of 3 docs (300 chunks): the load becomes a bulk one at its 2,000th chunk.
    expect(await streamIndex!.ingestStream(batches([small, ...manyDocs], 3))).toEqual(await arrayIndex!.ingest([small, ...manyDocs]));
    expect(dump(paths[1]!, words)).toEqual(dump(paths[0]!, words));

    // Then: page-3 changed, page-5 and small dropped, 25 new docs (2,500 chunks, more than the
    // 2,102 kept): a second bulk load, with page-3 replaced and page-5 removed by rowid.
    const changed = createTestDoc({ docId: 'page-3', sections: ['Only giraffes now.'] });
    const more = Array.from({ length: 25 }, (_, n) => createTestDoc({ docId: `more-${n}`, sections: Array.from({ length: 100 }, (_, ord) => `More ${ord} about owls.`) }));
    const next = [...more, ...manyDocs.filter((doc) => doc.docId !== 'page-3' && doc.docId !== 'page-5'), changed];
    const expected = await arrayIndex!.ingest(next);
    expect(expected).toMatchObject({ added: more.map((doc) => doc.docId).sort(), updated: ['page-3'], removed: ['page-5', 'small'], chunks: 2500 + 1900 + 1 });
    expect(await streamIndex!.ingestStream(batches(next, 4))).toEqual(expected);
    expect(await streamIndex!.search('giraffes', { k: 5 })).toMatchObject([{ chunkId: 'page-3#0' }]);
    expect(await streamIndex!.getChunk('page-3#7')).toBeUndefined();
    expect(await streamIndex!.getChunk('page-5#0')).toBeUndefined();
    await Promise.all([arrayIndex!.close(), streamIndex!.close()]);
    const [arrayRows, streamRows] = paths.map((path) => dump(path, words) as { chunks: Array<{ id: number }> });
    // Rowids differ (the array ingest deletes the dropped docs first); the content does not.
    const withoutIds = (rows: { chunks: Array<{ id: number }> }) => ({ ...rows, postings: [], definitions: [], chunks: rows.chunks.map(({ id, ...rest }) => rest).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) });
    expect(withoutIds(streamRows!)).toEqual(withoutIds(arrayRows!));
    // The postings of each term and what the definitions table finds, by chunk id.
    type Dumped = { postings: Array<{ term: string; df: number; postings: Array<{ id: number }> }>; definitions: number[][]; chunks: Array<{ id: number; chunk_id: string }> };
    const matches = (rows: Dumped) => {
      const idOf = new Map(rows.chunks.map((chunk) => [chunk.id, chunk.chunk_id]));
      const postings = rows.postings.map((term) => ({
        ...term,
        postings: term.postings.map(({ id, ...rest }) => ({ chunk: idOf.get(id), ...rest })).sort((a, b) => (a.chunk! < b.chunk! ? -1 : 1)),
      }));
      return [[postings], rows.definitions.map((ids) => ids.map((id) => idOf.get(id)).sort())];
    };
    expect(matches(streamRows as never)).toEqual(matches(arrayRows as never));
    expect(matches(streamRows as never)[1]!.flat()).toContain('page-4#7');
    expect(matches(streamRows as never)[1]!.flat()).not.toContain('page-5#7');
  });

  it('rolls everything back when the source throws, and the previous index stays as it was', async () => {
    const index = createSqliteIndex({ path: newPath() });
    const before = await index.ingest(manyDocs.slice(0, 2));
    async function* failing(): AsyncGenerator<Doc[]> {
      yield manyDocs.slice(2, 20);
      yield manyDocs.slice(20);
      throw new Error('disk of pages went away');
    }
    await expect(index.ingestStream(failing())).rejects.toThrow('disk of pages went away');
    expect(await index.stats()).toEqual({ docs: 2, chunks: 200 });
    expect(await index.indexVersion()).toBe(before.indexVersion);
    expect(await index.getChunk('page-10#7')).toBeUndefined();
    expect((await index.search('max_retries_1', { k: 1 })).map((hit) => hit.chunkId)).toEqual(['page-1#7']);
    // The index takes the next ingest as usual.
    expect(await index.ingestStream(batches(manyDocs.slice(0, 3), 1))).toMatchObject({ added: ['page-2'], unchanged: ['page-0', 'page-1'], chunks: 300 });
    await index.close();
  });

  it('rolls back when beforeCommit throws, after showing it the report the commit would make', async () => {
    const index = createSqliteIndex({ path: newPath() });
    const before = await index.ingest([manyDocs[0]!]);
    const seen: unknown[] = [];
    const refuse = (report: unknown) => {
      seen.push(report);
      throw new AtlasError('invalid-corpus', 'Atlas: 1 problem in the docs folder; nothing was written to the index.');
    };
    await expect(index.ingestStream(batches(manyDocs.slice(1, 3), 1), { beforeCommit: refuse })).rejects.toThrow('Atlas: 1 problem in the docs folder');
    expect(seen).toEqual([{ added: ['page-1', 'page-2'], updated: [], unchanged: [], removed: ['page-0'], chunks: 200, indexVersion: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(await index.stats()).toEqual({ docs: 1, chunks: 100 });
    expect(await index.indexVersion()).toBe(before.indexVersion);
    await index.close();
  });

  it('rejects a bad acl or a repeated id in a late batch with the same errors as ingest(), writing nothing', async () => {
    const index = createSqliteIndex({ path: newPath() });
    const before = await index.ingest([manyDocs[0]!]);
    const vault = createTestDoc({ docId: 'vault', labels: { acl: [] }, sections: ['Secrets.'] });
    await expect(index.ingestStream(batches([...manyDocs.slice(1, 4), vault], 2))).rejects.toThrow(
      'Atlas: chunk "vault#0" (vault.md) has labels.acl [], which names no group; nothing was written to the index. Name at least one group (acl: ["staff"]), or remove acl to make the page public.',
    );
    const twin = { ...manyDocs[2]!, sourcePath: 'guides/page-2.md' };
    await expect(index.ingestStream(batches([...manyDocs.slice(1, 4), twin], 2))).rejects.toThrow(
      'Atlas: two documents have the id "page-2" (page-2.md and guides/page-2.md); nothing was written to the index. Give each page a unique id in its front matter.',
    );
    expect(await index.stats()).toEqual({ docs: 1, chunks: 100 });
    expect(await index.indexVersion()).toBe(before.indexVersion);
    await index.close();
  });

  it('refuses a second ingest while a streamed one is running', async () => {
    const index = createSqliteIndex({ path: newPath() });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slow(): AsyncGenerator<Doc[]> {
      yield [manyDocs[0]!];
      await gate;
      yield [manyDocs[1]!];
    }
    const running = index.ingestStream(slow());
    await new Promise((resolve) => setImmediate(resolve));
    const message = `Atlas: an ingest into ${index.path} is still running on this index. Await it before starting another.`;
    await expect(index.ingest([manyDocs[2]!])).rejects.toThrow(message);
    await expect(index.ingestStream(batches([manyDocs[2]!], 1))).rejects.toThrow(message);
    release();
    expect(await running).toMatchObject({ added: ['page-0', 'page-1'], chunks: 200 });
    await index.close();
  });
});
