// SQLite and file system failures on an index file as AtlasErrors that name the path, the cause
// and the fix.
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { AtlasError } from '../../errors.ts';

/** The `code` of a Node or better-sqlite3 error (`SQLITE_BUSY`, `ENOENT`), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a failure of SQLite or of the file system on the index at `path` into an
 * {@link AtlasError} naming the path, the cause and the fix; an AtlasError passes through, and
 * anything else is returned unchanged (a bug, reported as such by the CLI).
 *
 * @example
 * try { ingestDocs(db, docs, tokenizer); } catch (error) { throw toIndexError(error, path); }
 * // SQLITE_BUSY -> "Atlas: another ingest is writing .atlas/index.db; try again when it finishes. ..."
 */
export function toIndexError(error: unknown, path: string): unknown {
  if (error instanceof AtlasError) return error;
  const code = errorCode(error);
  if (code === undefined) return error;
  const cause = error instanceof Error ? error.message : String(error);
  const make = (kind: 'index-busy' | 'index-io' | 'index-damaged' | 'usage', message: string) => new AtlasError(kind, message, { cause: error });
  const rebuild = `atlas ingest <docs-dir> --db ${path} --rebuild`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return make('index-busy', `Atlas: another ingest is writing ${path}; try again when it finishes. (SQLite: ${cause}, ${code})`);
  }
  if ((code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_READONLY_CANTINIT') && !isWalFile(path)) {
    return make(
      'index-io',
      `Atlas: cannot write the index at ${path}: its folder ${dirname(path)} is not writable, and SQLite needs to create its journal file beside the index (${code}); the index was left as it was. Make the folder writable, or pass --db with a path in a folder you can write.`,
    );
  }
  if (code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_READONLY_CANTINIT') {
    return make(
      'index-io',
      `Atlas: cannot open the index at ${path}: it is in WAL mode (an ingest is running or was interrupted) and its folder is read-only, so SQLite cannot create its -shm file (${code}). Let the ingest finish, or run atlas ingest once with write access to the folder, or copy the index to a writable folder.`,
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return make(
      'index-io',
      `Atlas: cannot write the index at ${path}: the file or its folder is read-only (${code}); the index was left as it was. Make both writable, or pass --db with a path you can write.`,
    );
  }
  if (code.startsWith('SQLITE_FULL')) {
    return make('index-io', `Atlas: the disk is full: could not write the index at ${path} (${code}); the index was left as it was. Free some space and run the ingest again.`);
  }
  if (code === 'SQLITE_NOTADB') {
    return make('index-damaged', `Atlas: the file at ${path} is not an SQLite database (${code}). Pass another --db path, or replace the file with a new index: ${rebuild}`);
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return make('index-damaged', `Atlas: the index at ${path} is damaged (${cause}, ${code}), e.g. truncated by a copy or a full disk. Rebuild it: ${rebuild}`);
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return make(
      'index-io',
      `Atlas: cannot open the index at ${path} (${cause}, ${code}). Check that it is a file you can read and that its folder exists and is writable for an ingest, or pass another --db.`,
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return make('index-io', `Atlas: input/output error on the index at ${path} (${cause}, ${code}); the index was left as it was. Check the disk (space, permissions, mount), then run the command again.`);
  }
  if (code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH') || code === 'EACCES' || code === 'EPERM') {
    return make('index-io', `Atlas: permission denied on the index at ${path} (${code}). Make the file and its folder readable (and writable for an ingest), or pass another --db.`);
  }
  if (code === 'ENAMETOOLONG') {
    return make('usage', `Atlas: the --db path is too long (${code}): ${path}. Use a shorter path (names of at most 255 bytes), e.g. --db .atlas/index.db`);
  }
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return make('usage', `Atlas: --db ${path} lies under a file, not a folder (${code}). Pass a path whose folders are folders, e.g. --db .atlas/index.db`);
  }
  if (code === 'ENOSPC') {
    return make('index-io', `Atlas: the disk is full: could not create the index at ${path} (${code}). Free some space and run the ingest again.`);
  }
  if (code.startsWith('SQLITE_')) {
    return make('index-io', `Atlas: SQLite failed on the index at ${path}: ${cause} (${code}). If it persists, rebuild it: ${rebuild}`);
  }
  return error;
}

/**
 * Whether the database file at `path` is in WAL mode, from its header (the read and write
 * format bytes, 18 and 19, are 2); false when it cannot be read.
 */
function isWalFile(path: string): boolean {
  const header = Buffer.alloc(20);
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    return readSync(descriptor, header, 0, 20, 0) === 20 && header[18] === 2 && header[19] === 2;
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Wraps every method of an index so that SQLite and file system failures become
 * {@link toIndexError}'s AtlasErrors naming `path`.
 *
 * @example
 * const index = withIndexErrors(createSqliteIndex({ path }), path);
 */
export function withIndexErrors<T extends object>(index: T, path: string): T {
  const guarded: Record<string, unknown> = { ...(index as Record<string, unknown>) };
  for (const [name, value] of Object.entries(index)) {
    if (typeof value !== 'function') continue;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await (value as (...inner: unknown[]) => unknown).apply(index, args);
      } catch (error) {
        throw toIndexError(error, path);
      }
    };
  }
  return guarded as T;
}
