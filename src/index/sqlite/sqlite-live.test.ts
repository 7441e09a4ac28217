import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../corpus/types.ts';
import { withIndexLease } from '../index-lease.ts';
import { createTestDoc } from '../test-docs.ts';
import { createLiveSqliteIndex } from './sqlite-live.ts';
import { replaceIndexFile } from './sqlite-rebuild.ts';
import { createSqliteIndex, type SqliteIndex } from './sqlite.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-live-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let fileCount = 0;
const freshPath = (): string => join(scratch, `db-${(fileCount += 1)}`, 'index.db');

const plan = createTestDoc({ docId: 'plan', sections: ['The zephyrine migration ships next quarter.'] });
const restricted = createTestDoc({ docId: 'plan', labels: { acl: ['admins'] }, sections: ['The zephyrine migration ships next quarter.'] });
const other = createTestDoc({ docId: 'other', sections: ['Workers renew their lease before it runs out.'] });

async function writeIndex(path: string, docs: Doc[]): Promise<void> {
  const index = createSqliteIndex({ path });
  await index.ingest(docs);
  await index.close();
}

/** What `atlas ingest --rebuild` does: a new file renamed over the old one. */
async function rebuild(path: string, docs: Doc[]): Promise<void> {
  await replaceIndexFile(path, (temporary) => writeIndex(temporary, docs));
}

/** `createSqliteIndex` read-only, recording which versions were opened and closed. */
function recordingOpen(): { open: (path: string) => SqliteIndex; opened: () => number; closed: () => number } {
  let opened = 0;
  let closed = 0;
  return {
    open: (path) => {
      const index = createSqliteIndex({ path, readonly: true });
      opened += 1;
      return {
        ...index,
        close: async () => {
          closed += 1;
          await index.close();
        },
      };
    },
    opened: () => opened,
    closed: () => closed,
  };
}

const ids = (hits: Array<{ chunkId: string }>) => hits.map((hit) => hit.chunkId);

describe('createLiveSqliteIndex', () => {
  it('serves the new file once --rebuild renames it over the old one: new access labels, deleted pages gone, new counts', async () => {
    const path = freshPath();
    await writeIndex(path, [plan, other]);
    const live = createLiveSqliteIndex({ path });
    expect(ids(await live.search('zephyrine', { k: 5 }))).toEqual(['plan#0']);
    await rebuild(path, [restricted]);
    expect(ids(await live.search('zephyrine', { k: 5 }))).toEqual([]);
    expect(await live.getChunk('plan#0')).toBeUndefined();
    expect((await live.getChunk('plan#0', { principal: { groups: ['admins'] } }))?.labels).toEqual({ acl: ['admins'] });
    expect(ids(await live.search('lease', { k: 5 }))).toEqual([]);
    expect(await live.stats()).toEqual({ docs: 1, chunks: 1 });
    await live.close();
  });

  it('a lease keeps the version it started on, in the async work it starts too; the replaced version is closed once released', async () => {
    const path = freshPath();
    await writeIndex(path, [plan, other]);
    const versions = recordingOpen();
    const live = createLiveSqliteIndex({ path, open: versions.open });
    const lease = live.lease();
    await rebuild(path, [restricted]);
    const inside = await lease.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { search: ids(await live.search('zephyrine', { k: 5 })), stats: await live.stats() };
    });
    expect(inside).toEqual({ search: ['plan#0'], stats: { docs: 2, chunks: 2 } });
    // Outside the lease, the next call opens the new file; the old one stays open for the lease.
    expect(await live.stats()).toEqual({ docs: 1, chunks: 1 });
    expect([versions.opened(), versions.closed()]).toEqual([2, 0]);
    expect(await lease.run(() => live.stats())).toEqual({ docs: 2, chunks: 2 });
    lease.release();
    lease.release();
    expect([versions.opened(), versions.closed()]).toEqual([2, 1]);
    // A call of a released lease reads the newest version.
    expect(await lease.run(() => live.stats())).toEqual({ docs: 1, chunks: 1 });
    await live.close();
    expect(versions.closed()).toEqual(2);
  });

  it('withIndexLease: one version for the whole piece of work, the index itself otherwise', async () => {
    const path = freshPath();
    await writeIndex(path, [plan, other]);
    const live = createLiveSqliteIndex({ path });
    const seen = await withIndexLease(live, async () => {
      const before = await live.stats();
      await rebuild(path, [other]);
      return [before, await live.stats()];
    });
    expect(seen).toEqual([{ docs: 2, chunks: 2 }, { docs: 2, chunks: 2 }]);
    expect(await live.stats()).toEqual({ docs: 1, chunks: 1 });
    await live.close();
    const memory = createSqliteIndex({ path: ':memory:' });
    expect(await withIndexLease(memory, () => memory.stats())).toEqual({ docs: 0, chunks: 0 });
    await memory.close();
  });

  it('an in-place ingest keeps the file: its commits are seen without opening it again', async () => {
    const path = freshPath();
    await writeIndex(path, [plan]);
    const versions = recordingOpen();
    const live = createLiveSqliteIndex({ path, open: versions.open });
    expect(await live.stats()).toEqual({ docs: 1, chunks: 1 });
    await writeIndex(path, [plan, other]);
    expect(ids(await live.search('lease', { k: 5 }))).toEqual(['other#0']);
    expect(versions.opened()).toBe(1);
    await live.close();
  });

  it('a replacement that cannot be opened is reported once, the version open before serves on, and the next good file is taken', async () => {
    const path = freshPath();
    await writeIndex(path, [plan, other]);
    const errors: string[] = [];
    const live = createLiveSqliteIndex({ path, onReopenError: (error) => errors.push((error as Error).message) });
    const old = join(scratch, `old-${fileCount}.db`);
    await writeIndex(old, [other]);
    const raw = new Database(old);
    raw.prepare(`UPDATE meta SET value = '2' WHERE key = 'schemaVersion'`).run();
    raw.close();
    renameSync(old, path);
    expect(await live.stats()).toEqual({ docs: 2, chunks: 2 });
    expect(await live.stats()).toEqual({ docs: 2, chunks: 2 });
    expect(errors).toEqual([`Atlas: the index at ${path} has schema version 2 but this Atlas needs 6. Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`]);
    await rebuild(path, [other]);
    expect(await live.stats()).toEqual({ docs: 1, chunks: 1 });
    await live.close();
  });
});
