import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../corpus/types.ts';
import { createSqliteIndex } from './sqlite.ts';
import { createTestDoc } from '../test-docs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-journal-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(scratch, `index-${(files += 1)}.db`);

const pages = Array.from({ length: 3 }, (_, n) => createTestDoc({ docId: `page-${n}`, sections: [`Pelicans of page ${n} retry.`, `Weather of page ${n}.`] }));

/** What an ingest saw and left. */
interface JournalSeen {
  /** A `-journal` / `-wal` file beside the index between the source's first and second batch. */
  journal: boolean;
  wal: boolean;
  /** The file's journal mode and documents once the index is closed. */
  after: unknown;
  docsAfter: unknown;
}

/** A streamed ingest of `pages` into `path` (holding `docs` first); `fail`: the source throws after its first batch. */
async function journalFilesDuringIngest(path: string, docs: readonly Doc[], fail = false): Promise<JournalSeen> {
  const index = createSqliteIndex({ path });
  if (docs.length > 0) await index.ingest([...docs]);
  let seen = { journal: false, wal: false };
  async function* source(): AsyncGenerator<Doc[]> {
    yield pages.slice(0, 2);
    seen = { journal: existsSync(`${path}-journal`), wal: existsSync(`${path}-wal`) };
    if (fail) throw new Error('the pages went away');
    yield pages.slice(2);
  }
  try {
    await index.ingestStream(source());
  } catch (error) {
    if (!fail) throw error;
  }
  // Read while the writer is still open: its WAL mode shows; closing turns the file back to 'delete'.
  const reader = new Database(path, { readonly: true });
  const after = reader.pragma('journal_mode', { simple: true });
  const docsAfter = reader.prepare('SELECT count(*) FROM docs').pluck().get();
  reader.close();
  await index.close();
  return { ...seen, after, docsAfter };
}

describe('the journal of an ingest', () => {
  it('writes into an empty index through a rollback journal, not WAL, then goes back to WAL', async () => {
    expect(await journalFilesDuringIngest(newPath(), [])).toEqual({ journal: true, wal: false, after: 'wal', docsAfter: 3 });
  });

  it('keeps WAL for an index that holds documents (readers go on reading the previous index)', async () => {
    expect(await journalFilesDuringIngest(newPath(), [pages[0]!])).toEqual({ journal: false, wal: true, after: 'wal', docsAfter: 3 });
  });

  it('rolls a failed first ingest back to the empty index, which takes the next ingest as usual', async () => {
    const path = newPath();
    expect(await journalFilesDuringIngest(path, [], true)).toEqual({ journal: true, wal: false, after: 'wal', docsAfter: 0 });
    const index = createSqliteIndex({ path });
    expect(await index.stats()).toEqual({ docs: 0, chunks: 0 });
    expect(await index.ingest([...pages])).toMatchObject({ added: ['page-0', 'page-1', 'page-2'], chunks: 6 });
    expect((await index.search('pelicans', { k: 1, filter: {} })).length).toBe(1);
    await index.close();
  });

  it('stays in WAL when another connection has the file open, and the ingest still commits', async () => {
    const path = newPath();
    const index = createSqliteIndex({ path });
    const other = new Database(path, { readonly: true });
    other.prepare('SELECT count(*) FROM docs').get();
    let wal = false;
    async function* source(): AsyncGenerator<Doc[]> {
      yield pages.slice(0, 1);
      wal = existsSync(`${path}-wal`) && !existsSync(`${path}-journal`);
      yield pages.slice(1);
    }
    expect(await index.ingestStream(source())).toMatchObject({ added: ['page-0', 'page-1', 'page-2'], chunks: 6 });
    expect(wal).toBe(true);
    expect(other.prepare('SELECT count(*) FROM docs').pluck().get()).toBe(3);
    other.close();
    await index.close();
  });
});
