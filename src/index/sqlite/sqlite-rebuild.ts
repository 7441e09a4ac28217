import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { closeIndexDatabase, DEFAULT_BUSY_TIMEOUT_MS, prepareIndexPath, toIndexError } from './sqlite-open.ts';

/**
 * Replaces the index file at `path` with a new one, atomically: `build` writes the new index to
 * a temporary file beside it (same folder, so the same file system), and only once `build` has
 * finished and closed it is it renamed over `path` (one `rename`, atomic on POSIX). Until then
 * the old index stays as it was and readers keep using it; if `build` throws, the temporary file
 * is removed and the old index is untouched. Whatever was at `path` is replaced: an index of any
 * schema version, a damaged one, or a file that is not a database.
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
  let folder: string;
  try {
    folder = mkdtempSync(join(dirname(path), `.${basename(path)}.rebuild-`));
  } catch (error) {
    throw toIndexError(error, path);
  }
  try {
    const temporary = join(folder, basename(path));
    const result = await build(temporary);
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
    return result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
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
