import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AtlasError } from '../../errors.ts';
import { checkSchema, dropEverything, foreignDatabaseError, prepareSchema, readIndexFileContent } from './schema.ts';
import { errorCode, toIndexError } from './sqlite-errors.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';

export { toIndexError, withIndexErrors } from './sqlite-errors.ts';

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
