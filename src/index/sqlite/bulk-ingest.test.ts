import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteIndex } from './sqlite.ts';
import { createTestDoc } from '../test-docs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-bulk-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** 21 docs of 100 chunks (2,100: a bulk load into an empty index); doc n applies to 2.x, 3.x or all. */
const manyDocs = Array.from({ length: 21 }, (_, n) =>
  createTestDoc({
    docId: `page-${n}`,
    appliesTo: ['2.x', '3.x', 'all'][n % 3]!,
    sections: Array.from({ length: 100 }, (_, ord) => `Section ${ord} of page ${n} talks about ${ord === 7 ? 'pelicans' : 'weather'}.`),
  }),
);
const indexNames = (path: string): string[] => {
  const raw = new Database(path, { readonly: true });
  const names = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'chunks_%' ORDER BY name`).pluck().all() as string[];
  raw.close();
  return names;
};

describe('bulk ingest (secondary indexes built once after the inserts)', () => {
  it('leaves the same indexes, content and filtered results as a row-by-row ingest', async () => {
    const path = join(scratch, 'bulk.db');
    const index = createSqliteIndex({ path });
    const report = await index.ingest(manyDocs);
    expect(report.chunks).toBe(2100);
    expect(indexNames(path)).toEqual(['chunks_by_doc', 'chunks_for_filters']);
    const pelicans = (await index.search('pelicans', { k: 30 })).map((hit) => hit.chunkId).sort();
    expect(pelicans).toEqual(manyDocs.map((doc) => `${doc.docId}#7`).sort());
    const filtered = (await index.search('pelicans', { k: 30, filter: { version: '3.x' } })).map((hit) => hit.chunkId).sort();
    expect(filtered).toEqual(manyDocs.filter((doc) => doc.appliesTo !== '2.x').map((doc) => `${doc.docId}#7`).sort());
    expect((await index.neighbors('page-4#7')).map((chunk) => chunk.chunkId)).toEqual(['page-4#6', 'page-4#8']);

    // A later small ingest (one doc changed) goes row by row and keeps the rest.
    const changed = createTestDoc({ docId: 'page-4', appliesTo: 'all', sections: ['Only giraffes now.'] });
    const again = await index.ingest([...manyDocs.filter((doc) => doc.docId !== 'page-4'), changed]);
    expect(again).toMatchObject({ added: [], updated: ['page-4'], removed: [], chunks: 2001 });
    expect((await index.search('giraffes', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['page-4#0']);
    expect(await index.getChunk('page-4#7')).toBeUndefined();
    await index.close();
  });

  it('rolls a failed bulk ingest back with its indexes', async () => {
    const path = join(scratch, 'failed.db');
    const index = createSqliteIndex({ path });
    const small = createTestDoc({ docId: 'small', sections: ['Zebras graze.'] });
    const before = await index.ingest([small]);
    const last = manyDocs[20]!;
    const broken = { ...last, chunks: [...last.chunks, { ...last.chunks[0]! }] };
    await expect(index.ingest([small, ...manyDocs.slice(0, 20), broken])).rejects.toThrow(/UNIQUE constraint failed: chunks.chunk_id/);
    expect(await index.stats()).toEqual({ docs: 1, chunks: 1 });
    expect(await index.indexVersion()).toBe(before.indexVersion);
    expect(indexNames(path)).toEqual(['chunks_by_doc', 'chunks_for_filters']);
    expect((await index.search('zebras', { k: 5, filter: { version: '3.x' } })).map((hit) => hit.chunkId)).toEqual(['small#0']);
    await index.close();
  });
});
