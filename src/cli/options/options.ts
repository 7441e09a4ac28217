import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { AtlasError } from '../../errors.ts';
import { isPostgresUrl } from '../../index/postgres/postgres-url.ts';
import { createSqliteIndex, type SqliteIndex } from '../../index/sqlite/sqlite.ts';
import { createLiveSqliteIndex, type LiveSqliteIndex } from '../../index/sqlite/sqlite-live.ts';
import type { IndexBackend } from '../../index/types.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, withIndexErrors } from '../../index/sqlite/sqlite-open.ts';
import type { CliIO } from '../io.ts';
import { nonEmpty } from './option-values.ts';
import { indexUrl } from './read-db.ts';

/** Default index location, relative to the working directory. */
export const DEFAULT_DB = '.atlas/index.db';

/** `--db PATH`, the index file (or `postgres://` URL) of the commands that read or write it. */
export function dbOption(): Option {
  return new Option('--db <path>', 'index file, or a postgres:// URL (?schema=name, default public)').default(DEFAULT_DB).argParser(nonEmpty('--db', DEFAULT_DB));
}

/** `--version V`, the release-line filter applied inside the index. */
export function versionOption(): Option {
  return new Option('--version <v>', 'only pages for this release line (and pages for all versions)').argParser(nonEmpty('--version', '3.x'));
}

/** commander parser for positive integers, with a message that says what to pass. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) {
      throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}" (e.g. ${name} 5).`);
    }
    return parsed;
  };
}

/**
 * Fails with a usage error when a required text argument is empty or only whitespace.
 *
 * @example
 * requireText(query, 'query', 'atlas search "lease timeout"');
 */
export function requireText(value: string | undefined, name: string, example: string): void {
  if (value !== undefined && value.trim() !== '') return;
  throw new AtlasError('usage', `Atlas: the ${name} is empty${value ? ' (only whitespace)' : ''}. Pass the text to use, e.g. ${example}`);
}

/** Resolves `--db` against the working directory. */
export function dbPath(io: CliIO, db: string | undefined): string {
  return path.resolve(io.cwd, db ?? DEFAULT_DB);
}

/**
 * The busy timeout of writers, from `ATLAS_BUSY_TIMEOUT` (seconds, default 30): how long an
 * ingest waits for another ingest of the same index before failing with a clear message.
 */
export function busyTimeoutMs(io: CliIO): number {
  const raw = io.env.ATLAS_BUSY_TIMEOUT?.trim();
  if (raw === undefined || raw === '') return DEFAULT_BUSY_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new AtlasError('usage', `Atlas: ATLAS_BUSY_TIMEOUT must be a number of seconds >= 0, got "${raw}". Set e.g. ATLAS_BUSY_TIMEOUT=30, or unset it.`);
  }
  return Math.round(seconds * 1000);
}

/** The index a command opens: any {@link IndexBackend}, plus the docs root `atlas ingest` records in it. */
export interface CliIndex extends IndexBackend {
  docsRoot(): Promise<string | undefined>;
  recordDocsRoot(folder: string): Promise<void>;
}

/** How a command opens its index: {@link openIndex}. */
export interface OpenIndexOptions {
  /** Open for writing (ingest); default read-only. */
  write?: boolean;
  /**
   * A long-lived reader (serve, mcp): an SQLite file is reopened when a new one replaces it
   * (`--rebuild`), with leases for one version per request (see createLiveSqliteIndex).
   */
  follow?: boolean;
  /**
   * `--read-db`: the PostgreSQL standby that serves this (read-only) index; `db` must then be
   * the PostgreSQL primary, where ingest and the conversations go.
   */
  readDb?: string;
}

/**
 * Opens the index at `--db`: a `postgres://` (or `postgresql://`) URL opens the PostgreSQL
 * index in that database (schema `?schema=`, default public), anything else the SQLite file.
 * Read-only unless `write` (search and ask never write, so a read-only file or folder works);
 * failures are AtlasErrors that name the file or server, the cause and the fix (never a password).
 * With `follow`, a read-only SQLite index follows its file when `--rebuild` replaces it (a
 * PostgreSQL rebuild is one transaction, which its readers see anyway).
 *
 * @example
 * const index = await openIndex(io, options.db);                  // search, ask
 * const served = await openIndex(io, options.db, { follow: true }); // serve, mcp
 * const writable = await openIndex(io, options.db, { write: true }); // ingest
 */
export async function openIndex(io: CliIO, db: string | undefined, options: OpenIndexOptions = {}): Promise<CliIndex> {
  const url = indexUrl(db, options.readDb, options.write === true);
  if (url !== undefined) {
    // Loaded only for a PostgreSQL index: the driver and the backend cost a SQLite search's start-up about 20 ms.
    const { createPostgresIndex } = await import('../../index/postgres/postgres.ts');
    return createPostgresIndex({ url, readonly: options.write !== true || options.readDb !== undefined });
  }
  if (options.follow && options.write !== true) return openLiveIndexFile(io, dbPath(io, db));
  return openIndexFile(io, dbPath(io, db), options);
}

/**
 * The read-only index file at `file`, reopened when a new file replaces it; a replacement that
 * cannot be opened is reported on stderr once, and the version open before goes on serving.
 */
function openLiveIndexFile(io: CliIO, file: string): LiveSqliteIndex {
  return createLiveSqliteIndex({
    path: file,
    open: (path) => openIndexFile(io, path),
    onReopenError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      io.stderr(`atlas: warning: the index at ${file} was replaced, but the new file cannot be opened: ${message} Still serving the index opened before.\n`);
    },
  });
}

/**
 * {@link openIndex} for a resolved path (`--rebuild` writes a temporary file first).
 *
 * @example
 * const index = openIndexFile(io, '/abs/.atlas/index.db', { write: true });
 */
export function openIndexFile(io: CliIO, file: string, options: { write?: boolean } = {}): SqliteIndex {
  const index = createSqliteIndex({ path: file, readonly: options.write !== true, busyTimeoutMs: busyTimeoutMs(io) });
  return withIndexErrors(index, file);
}
