import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AtlasError } from '../../errors.ts';
import { checkSchema, dropEverything, foreignDatabaseError, prepareSchema, readIndexFileContent } from './schema.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';

/** How long a writer waits for another writer to finish before giving up (ms): 30 s. */
export const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

/**
 * Page size of a new index file (SQLite's default is 4096): the 100k-chunk bench ingest spent
 * about a sixth less CPU writing SQLite with 8 KB pages (fewer pages to split and write per row
 * of chunk text and per FTS5 segment blob) and the file is 3% smaller. 16 KB won no more CPU but
 * raised the ingest's peak RSS by about 40 MB (8 KB: 10-20 MB), see docs/performance.md. An
 * existing file keeps its page size.
 */
export const NEW_INDEX_PAGE_BYTES = 8192;

/** Options of {@link openIndexDatabase}. */
export interface IndexOpenOptions {
  /** Database file (created with its folder if missing, unless `readonly`), or `':memory:'`. */
  path: string;
  /** Tokenizer of a new or empty index; unset means "as the index was built". */
  tokenizer?: Partial<TokenizerOptions>;
  /** Drop whatever is at `path` (any schema version) and start empty. */
  rebuild?: boolean;
  /**
   * Open for reading only (search, ask): nothing is written, not even the journal mode, so a
   * read-only file or folder works; the file must exist; an ingest through it fails.
   */
  readonly?: boolean;
  /** How long to wait for another connection's write lock, in ms. Default {@link DEFAULT_BUSY_TIMEOUT_MS}. */
  busyTimeoutMs?: number;
}

/** An open index database and the tokenizer its content was built with. */
export interface OpenedIndex {
  db: Database.Database;
  tokenizer: TokenizerOptions;
}

/**
 * Opens the index database at `path` and checks its schema version (schema.ts). A writer uses
 * WAL while it is open (readers are not blocked by an ingest) and {@link closeIndexDatabase}
 * turns the file back into a single self-contained file, which read-only users can open even
 * in a read-only folder. Every failure is an {@link AtlasError} naming the path, the cause and
 * the fix ({@link toIndexError}).
 *
 * @example
 * const { db, tokenizer } = openIndexDatabase({ path: '.atlas/index.db', readonly: true });
 */
export function openIndexDatabase(options: IndexOpenOptions): OpenedIndex {
  const { path } = options;
  const inMemory = path === ':memory:' || path === '';
  if (options.readonly && options.rebuild) {
    throw new AtlasError('usage', `Atlas: cannot rebuild the index at ${path} when it is opened read-only. Drop readonly, or rebuild.`);
  }
  if (!inMemory) prepareIndexPath(path, { readonly: options.readonly === true });
  let db: Database.Database;
  try {
    db = new Database(path, {
      readonly: options.readonly === true,
      fileMustExist: options.readonly === true,
      timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
  } catch (error) {
    throw toIndexError(error, path);
  }
  try {
    if (options.readonly) assertHasTables(db, path);
    // A file Atlas refuses (another application's database, another schema version) is refused
    // before anything is written, the journal mode included: it stays byte for byte as it was.
    if (options.rebuild) refuseForeignDatabase(db, path);
    else checkSchema(db, path, options.tokenizer);
    if (!options.readonly) {
      // Only a file with no page yet takes a page size; WAL mode would fix it at once.
      if (db.pragma('page_count', { simple: true }) === 0) db.pragma(`page_size = ${NEW_INDEX_PAGE_BYTES}`);
      useWal(db);
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    if (options.rebuild) dropEverything(db);
    // A writer takes the write lock up front (BEGIN IMMEDIATE): two writers that both read
    // first and then write would deadlock, and SQLite fails one at once instead of waiting.
    const prepare = db.transaction(() => prepareSchema(db, path, options.tokenizer));
    const tokenizer = options.readonly ? prepare() : prepare.immediate();
    return { db, tokenizer };
  } catch (error) {
    db.close();
    throw toIndexError(error, path);
  }
}

/**
 * WAL lets readers go on while an ingest writes. Switching to it needs the file to itself, and
 * SQLite fails the switch at once (no busy wait) while another connection holds a lock: then the
 * writer goes on in rollback-journal mode, equally atomic, and its first transaction waits for
 * the other writer (busy timeout) instead of failing.
 */
function useWal(db: Database.Database): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch (error) {
    if (!errorCode(error)?.startsWith('SQLITE_BUSY')) throw error;
  }
}

/**
 * Prepares a write into an index that holds no document yet (a first ingest, a rebuild, the new
 * file `replaceIndexFile` builds): such a write goes in rollback-journal mode instead of WAL, and
 * the returned function switches back to WAL once it has committed or rolled back. WAL would
 * write every page twice (the log, then the checkpoint into the file at the commit: 0.5-0.7 s of
 * the 100k-chunk bench ingest), while a rollback journal keeps only the pages that existed
 * before the transaction, which for an empty index is a few pages of schema: just as atomic
 * (a failed or killed ingest leaves the empty index), durable at the commit, and the pages are
 * written once. Readers of an empty index wait for the commit (busy timeout) instead of reading
 * the empty snapshot. Nothing changes for a non-empty index, an in-memory or read-only one, or
 * when another connection has the file open (SQLite refuses to leave WAL then).
 *
 * @example
 * const restore = useRollbackJournalWhileEmpty(db);
 * try { ingestDocs(db, docs, tokenizer); } finally { restore(); }
 */
export function useRollbackJournalWhileEmpty(db: Database.Database): () => void {
  const unchanged = () => {};
  if (db.memory || db.readonly || db.inTransaction) return unchanged;
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return unchanged;
  if (db.prepare('SELECT EXISTS (SELECT 1 FROM docs)').pluck().get() === 1) return unchanged;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  try {
    // Leaving WAL needs the file to itself; do not wait for another connection to let go.
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
  } catch (error) {
    if (!errorCode(error)?.startsWith('SQLITE_BUSY')) throw error;
    return unchanged;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  return () => {
    if (!db.open || db.inTransaction) return;
    useWal(db);
    // A read opens this connection's own WAL files now; else a reader opening the file first would
    // create them, and the -wal would outlive closeIndexDatabase.
    db.prepare('SELECT count(*) FROM meta').get();
  };
}

/**
 * Closes an index database. A writer first leaves WAL mode when it is the last connection (the
 * checkpoint SQLite does anyway), so no `-wal`/`-shm` files stay beside the index; when other
 * connections are open it does not wait for them and the file stays in WAL mode until the last
 * writer closes.
 *
 * @example
 * closeIndexDatabase(db);
 */
export function closeIndexDatabase(db: Database.Database): void {
  if (!db.open) return;
  if (!db.readonly && !db.memory) {
    try {
      db.pragma('busy_timeout = 0');
      db.pragma('journal_mode = DELETE');
    } catch {
      // Another connection has the file open: it stays in WAL mode, which is just as valid.
    }
  }
  db.close();
}

/**
 * Checks an index path before SQLite sees it (SQLite only says "unable to open database file"):
 * a folder, a path too long or under a file are usage errors; a missing file is an error when
 * reading, and gets its folder created when writing.
 *
 * @example
 * prepareIndexPath('.atlas/index.db', { readonly: false }); // creates .atlas/ if needed
 */
export function prepareIndexPath(path: string, options: { readonly: boolean }): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT') throw toIndexError(error, path);
    if (options.readonly) {
      throw new AtlasError('index-missing', `Atlas: no index at ${path}. Build it first: atlas ingest <docs-dir> --db ${path}`, { cause: error });
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (mkdirError) {
      throw toIndexError(mkdirError, path);
    }
  }
  if (isDirectory) {
    throw new AtlasError('usage', `Atlas: --db ${path} is a folder, not an index file. Pass a file path, e.g. --db ${path.replace(/\/+$/, '')}/index.db`);
  }
}

/**
 * Refuses another application's database (its tables would be dropped); an Atlas index of any
 * schema version, an empty database and a new file pass.
 *
 * @example
 * refuseForeignDatabase(db, 'app.db'); // throws "... is an SQLite database with tables users, orders, not an Atlas index ..."
 */
export function refuseForeignDatabase(db: Database.Database, path: string): void {
  const content = readIndexFileContent(db);
  if (content.kind === 'foreign') throw foreignDatabaseError(path, content.tables);
}

function assertHasTables(db: Database.Database, path: string): void {
  const tables = db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).pluck().get() as number;
  if (tables === 0) {
    throw new AtlasError('index-missing', `Atlas: the file at ${path} is an empty database, not an index yet. Build it first: atlas ingest <docs-dir> --db ${path}`);
  }
}

function errorCode(error: unknown): string | undefined {
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
