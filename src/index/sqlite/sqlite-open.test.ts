import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { ingestDocs } from './ingest.ts';
import { createSqliteIndex } from './sqlite.ts';
import { closeIndexDatabase, NEW_INDEX_PAGE_BYTES, openIndexDatabase, toIndexError, withIndexErrors } from './sqlite-open.ts';
import { createIndexFile, isIndexExists, replaceIndexFile } from './sqlite-rebuild.ts';
import { createTestDoc } from '../test-docs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-open-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;
const freshPath = () => join(scratch, `case-${(count += 1)}`, 'index.db');

const small = [createTestDoc({ docId: 'retries', sections: ['Failed jobs are retried with backoff.'] })];
const big = Array.from({ length: 40 }, (_, position) =>
  createTestDoc({ docId: `page-${position}`, sections: [`${'Lease renewal keeps a running job owned by its worker. '.repeat(60)}${position}`] }),
);

async function docIdsAt(path: string): Promise<string[]> {
  const raw = new Database(path, { readonly: true });
  const ids = raw.prepare('SELECT doc_id FROM docs ORDER BY doc_id').pluck().all() as string[];
  raw.close();
  return ids;
}

async function built(path: string): Promise<void> {
  const index = createSqliteIndex({ path });
  await index.ingest(small);
  await index.close();
}

describe('openIndexDatabase', () => {
  it('a full disk mid-transaction (SQLITE_FULL via max_page_count): a clear error, the index left as it was', async () => {
    const path = freshPath();
    await built(path);
    const { db, tokenizer } = openIndexDatabase({ path });
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 4}`);
    let failure: unknown;
    try {
      ingestDocs(db, big, tokenizer);
    } catch (error) {
      failure = toIndexError(error, path);
    }
    closeIndexDatabase(db);
    expect(failure).toBeInstanceOf(AtlasError);
    expect((failure as AtlasError).code).toBe('index-io');
    expect((failure as AtlasError).message).toBe(
      `Atlas: the disk is full: could not write the index at ${path} (SQLITE_FULL); the index was left as it was. Free some space and run the ingest again.`,
    );
    expect(await docIdsAt(path)).toEqual(['retries']);
  });

  it('gives a new file 8 KB pages, and an existing file keeps its page size', async () => {
    const pageSize = (path: string) => {
      const raw = new Database(path, { readonly: true });
      const bytes = raw.pragma('page_size', { simple: true });
      raw.close();
      return bytes;
    };
    const path = freshPath();
    await built(path);
    const older = freshPath();
    mkdirSync(join(older, '..'), { recursive: true });
    // An index of an older schema version, in SQLite's default 4 KB pages.
    const raw = new Database(older);
    raw.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schemaVersion', '1')`);
    raw.close();
    const rebuilt = createSqliteIndex({ path: older, rebuild: true });
    await rebuilt.ingest(small);
    await rebuilt.close();
    expect([NEW_INDEX_PAGE_BYTES, pageSize(path), pageSize(older), await docIdsAt(older)]).toEqual([8192, 8192, 4096, ['retries']]);
  });

  it('read-only: writes nothing on open, searches, and refuses an ingest with the fix', async () => {
    const path = freshPath();
    await built(path);
    const index = withIndexErrors(createSqliteIndex({ path, readonly: true }), path);
    expect((await index.search('backoff', { k: 1 })).map((hit) => hit.chunkId)).toEqual(['retries#0']);
    await expect(index.ingest([])).rejects.toThrow(
      `Atlas: cannot write the index at ${path}: the file or its folder is read-only (SQLITE_READONLY); the index was left as it was. Make both writable, or pass --db with a path you can write.`,
    );
    await index.close();
    expect(await docIdsAt(path)).toEqual(['retries']);
    expect(readdirSync(join(path, '..'))).toEqual(['index.db']);
  });

  it('read-only: a missing file or an empty database is "no index yet", not an empty index created', () => {
    const missing = freshPath();
    expect(() => openIndexDatabase({ path: missing, readonly: true })).toThrow(
      `Atlas: no index at ${missing}. Build it first: atlas ingest <docs-dir> --db ${missing}`,
    );
    expect(existsSync(join(missing, '..'))).toBe(false);
    const empty = join(scratch, 'empty.db');
    writeFileSync(empty, '');
    expect(() => openIndexDatabase({ path: empty, readonly: true })).toThrow(
      `Atlas: the file at ${empty} is an empty database, not an index yet. Build it first: atlas ingest <docs-dir> --db ${empty}`,
    );
  });
});

describe('toIndexError', () => {
  const sqlite = (code: string, message: string) => new Database.SqliteError(message, code);
  const path = '/data/index.db';
  it.each([
    ['SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database',
      `Atlas: cannot write the index at ${path}: its folder /data is not writable, and SQLite needs to create its journal file beside the index (SQLITE_READONLY_DIRECTORY); the index was left as it was. Make the folder writable, or pass --db with a path in a folder you can write.`],
    ['SQLITE_CANTOPEN', 'unable to open database file',
      `Atlas: cannot open the index at ${path} (unable to open database file, SQLITE_CANTOPEN). Check that it is a file you can read and that its folder exists and is writable for an ingest, or pass another --db.`],
    ['SQLITE_IOERR_WRITE', 'disk I/O error',
      `Atlas: input/output error on the index at ${path} (disk I/O error, SQLITE_IOERR_WRITE); the index was left as it was. Check the disk (space, permissions, mount), then run the command again.`],
  ])('%s', (code, message, expected) => {
    expect((toIndexError(sqlite(code, message), path) as Error).message).toBe(expected);
  });

  it('issue 38: a read-only folder is named as the cause, and WAL mode only when the file is in WAL mode (a read-only folder cannot be provoked as root: the error is built)', async () => {
    const readonlyFolder = sqlite('SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database');
    const rollback = freshPath();
    await built(rollback);
    expect((toIndexError(readonlyFolder, rollback) as Error).message).toBe(
      `Atlas: cannot write the index at ${rollback}: its folder ${join(rollback, '..')} is not writable, and SQLite needs to create its journal file beside the index (SQLITE_READONLY_DIRECTORY); the index was left as it was. Make the folder writable, or pass --db with a path in a folder you can write.`,
    );
    const wal = freshPath();
    await built(wal);
    const writer = new Database(wal);
    writer.pragma('journal_mode = WAL');
    writer.close();
    expect((toIndexError(readonlyFolder, wal) as Error).message).toBe(
      `Atlas: cannot open the index at ${wal}: it is in WAL mode (an ingest is running or was interrupted) and its folder is read-only, so SQLite cannot create its -shm file (SQLITE_READONLY_DIRECTORY). Let the ingest finish, or run atlas ingest once with write access to the folder, or copy the index to a writable folder.`,
    );
  });

  it('maps file system errors of the index path (EACCES cannot be provoked as root: the error is built)', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, mkdir '/data'"), { code: 'EACCES' });
    expect((toIndexError(denied, path) as Error).message).toBe(
      `Atlas: permission denied on the index at ${path} (EACCES). Make the file and its folder readable (and writable for an ingest), or pass another --db.`,
    );
    const bug = new TypeError('x is undefined');
    expect(toIndexError(bug, path)).toBe(bug);
  });
});

describe('replaceIndexFile', () => {
  it('keeps the old index untouched when the build fails, and leaves no temporary file', async () => {
    const path = freshPath();
    await built(path);
    await expect(
      replaceIndexFile(path, async (temporary) => {
        const index = createSqliteIndex({ path: temporary });
        await index.ingest(big);
        await index.close();
        throw new Error('interrupted');
      }),
    ).rejects.toThrow('interrupted');
    expect(await docIdsAt(path)).toEqual(['retries']);
    expect(readdirSync(join(path, '..'))).toEqual(['index.db']);
  });

  it('replaces the old index only when the new one is complete, and folds away a -wal left by a killed writer', async () => {
    const live = freshPath();
    await built(live);
    const writer = new Database(live);
    writer.pragma('journal_mode = WAL');
    writer.exec(`INSERT INTO meta (key, value) VALUES ('left', 'behind')`);
    // What a killed process leaves: the file and its -wal, copied while the writer is alive.
    const path = freshPath();
    mkdirSync(join(path, '..'));
    copyFileSync(live, path);
    copyFileSync(`${live}-wal`, `${path}-wal`);
    const build = (target: string) =>
      replaceIndexFile(target, async (temporary) => {
        const index = createSqliteIndex({ path: temporary });
        await index.ingest(big.slice(0, 2));
        await index.close();
        return docIdsAt(target);
      });
    // A writer still running holds the old index: the rebuild fails as busy and changes nothing.
    await expect(build(live)).rejects.toThrow(`Atlas: another ingest is writing ${live}; try again when it finishes.`);
    writer.close();
    expect(await docIdsAt(live)).toEqual(['retries']);
    expect(await build(path)).toEqual(['retries']);
    expect(await docIdsAt(path)).toEqual(['page-0', 'page-1']);
    expect(readdirSync(join(path, '..'))).toEqual(['index.db']);
  });

  it("issue 38: refuses another application's database before building, and leaves it byte for byte as it was", async () => {
    const path = freshPath();
    mkdirSync(join(path, '..'));
    const raw = new Database(path);
    raw.exec('CREATE TABLE users (id INTEGER PRIMARY KEY); CREATE TABLE orders (id INTEGER PRIMARY KEY)');
    raw.close();
    const before = readFileSync(path);
    let built = false;
    await expect(
      replaceIndexFile(path, async () => {
        built = true;
      }),
    ).rejects.toThrow(`Atlas: the file at ${path} is an SQLite database with tables users, orders, not an Atlas index, and Atlas will not write to it. Choose another --db path for the index, e.g. --db .atlas/index.db`);
    expect([built, readFileSync(path).equals(before), readdirSync(join(path, '..'))]).toEqual([false, true, ['index.db']]);
  });
});

describe('createIndexFile', () => {
  it('issue 38: never puts a new index over one another process created meanwhile (index-exists), and leaves no temporary file', async () => {
    const path = freshPath();
    const build = (docs: typeof big) => async (temporary: string) => {
      const index = createSqliteIndex({ path: temporary });
      await index.ingest(docs);
      await index.close();
    };
    // The other ingest finishes while this one builds.
    const error = await createIndexFile(path, async (temporary) => {
      await createIndexFile(path, build(small));
      await build(big.slice(0, 2))(temporary);
    }).catch((caught: unknown) => caught);
    expect([isIndexExists(error), (error as Error).message]).toEqual([true, `Atlas: another ingest created the index at ${path} while this one was building it; that index was kept.`]);
    expect(await docIdsAt(path)).toEqual(['retries']);
    expect(readdirSync(join(path, '..'))).toEqual(['index.db']);
  });

  it('creates the index when the path is free, folding away a -wal left beside a deleted index', async () => {
    const path = freshPath();
    mkdirSync(join(path, '..'));
    writeFileSync(`${path}-wal`, 'left by a killed writer of an index since deleted');
    await createIndexFile(path, async (temporary) => {
      const index = createSqliteIndex({ path: temporary });
      await index.ingest(small);
      await index.close();
    });
    expect(await docIdsAt(path)).toEqual(['retries']);
    expect(readdirSync(join(path, '..'))).toEqual(['index.db']);
  });
});
