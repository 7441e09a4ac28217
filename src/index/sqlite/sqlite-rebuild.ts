import { existsSync, linkSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { AtlasError } from '../../errors.ts';
import { closeIndexDatabase, DEFAULT_BUSY_TIMEOUT_MS, prepareIndexPath, refuseForeignDatabase, toIndexError } from './sqlite-open.ts';

/**
 * Replaces the index file at `path` with a new one, atomically: `build` writes the new index to
 * a temporary file beside it (same folder, so the same file system), and only once `build` has
 * finished and closed it is it renamed over `path` (one `rename`, atomic on POSIX). Until then
 * the old index stays as it was and readers keep using it; if `build` throws, the temporary file
 * is removed and the old index is untouched. An index of any schema version, a damaged one, or a
 * file that is not a database is replaced; another application's SQLite database is refused
 * before `build` runs, and left as it was.
 *
 * @example
 * await replaceIndexFile('.atlas/index.db', async (temporary) => {
 *   const index = createSqliteIndex({ path: temporary });
 *   try { return await index.ingest(docs); } finally { await index.close(); }
 * });
 */
export async function replaceIndexFile<T>(
  path: string,
  build: (temporaryPath: string) => Promise<T>,
  options: { busyTimeoutMs?: number } = {},
): Promise<T> {
  prepareIndexPath(path, { readonly: false });
  refuseForeignFile(path);
  return withTemporaryIndex(path, build, (temporary) => {
    settleOldJournal(path);
    const lock = lockOldIndex(path, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    try {
      renameSync(temporary, path);
    } catch (error) {
      throw toIndexError(error, path);
    } finally {
      lock?.exec('ROLLBACK');
      lock?.close();
    }
  });
}

/**
 * Creates the index file at `path`, which does not exist yet, as {@link replaceIndexFile} builds
 * one (beside it, then into place), but never over a file: when another process created `path`
 * while `build` ran (two first ingests started together), that index is kept and this throws an
 * {@link AtlasError} with code `index-exists`, so the caller can ingest into it instead. The file
 * is put in place with a hard link, which fails when the name exists; a file system without hard
 * links gets a rename after a last check.
 *
 * @example
 * try { await createIndexFile(path, build); } catch (error) { if (isIndexExists(error)) await ingestInto(path); else throw error; }
 */
export async function createIndexFile<T>(path: string, build: (temporaryPath: string) => Promise<T>): Promise<T> {
  prepareIndexPath(path, { readonly: false });
  return withTemporaryIndex(path, build, (temporary) => {
    // An old -wal beside a deleted index would be replayed into the new file.
    if (!existsSync(path)) settleOldJournal(path);
    try {
      linkSync(temporary, path);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EEXIST') throw indexExists(path);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw toIndexError(error, path);
    }
    if (existsSync(path)) throw indexExists(path);
    try {
      renameSync(temporary, path);
    } catch (error) {
      throw toIndexError(error, path);
    }
  });
}

/**
 * Whether `error` is {@link createIndexFile}'s "another process created the index meanwhile".
 *
 * @example
 * isIndexExists(error); // true: ingest into the index the other process created
 */
export function isIndexExists(error: unknown): boolean {
  return error instanceof AtlasError && error.code === 'index-exists';
}

function indexExists(path: string): AtlasError {
  return new AtlasError('index-exists', `Atlas: another ingest created the index at ${path} while this one was building it; that index was kept.`);
}

/** Runs `build` on a temporary file in a new folder beside `path`, then `install` on it; the folder is removed whatever happens. */
async function withTemporaryIndex<T>(path: string, build: (temporaryPath: string) => Promise<T>, install: (temporaryPath: string) => void): Promise<T> {
  let folder: string;
  try {
    folder = mkdtempSync(join(dirname(path), `.${basename(path)}.rebuild-`));
  } catch (error) {
    throw toIndexError(error, path);
  }
  try {
    const temporary = join(folder, basename(path));
    const result = await build(temporary);
    install(temporary);
    return result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Refuses to replace another application's SQLite database. The file is only read (read-only
 * connection); one that SQLite cannot read as a database (damaged, or not one) may be replaced.
 */
function refuseForeignFile(path: string): void {
  if (!existsSync(path)) return;
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return;
  }
  try {
    refuseForeignDatabase(db, path);
  } catch (error) {
    if (error instanceof AtlasError) throw error;
  } finally {
    db.close();
  }
}

/**
 * Takes the old index's write lock for the rename, so that an ingest writing it finishes first
 * (busy timeout) instead of committing into a file that is no longer the index. A damaged old
 * file needs no lock.
 */
function lockOldIndex(path: string, busyTimeoutMs: number): Database.Database | undefined {
  if (!existsSync(path)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: busyTimeoutMs });
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw toIndexError(error, path);
    return undefined;
  }
}

/**
 * A `-wal` file left beside the old index (an interrupted ingest) would be replayed into the new
 * file after the rename: fold it into the old index first (or drop it when the old index is
 * damaged anyway). A running writer holds it: then the rebuild waits for it, or fails as busy.
 */
function settleOldJournal(path: string): void {
  if (!existsSync(`${path}-wal`)) return;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('journal_mode = DELETE');
    closeIndexDatabase(db);
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw toIndexError(error, path);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}
