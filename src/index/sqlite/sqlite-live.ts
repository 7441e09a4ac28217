import { AsyncLocalStorage } from 'node:async_hooks';
import { statSync } from 'node:fs';
import type { IndexLease, LeasableIndex } from '../index-lease.ts';
import { createSqliteIndex, type SqliteIndex } from './sqlite.ts';

/** Options of {@link createLiveSqliteIndex}. */
export interface LiveSqliteIndexOptions {
  /** The index file to follow. */
  path: string;
  /** Opens one version of the file (default: `createSqliteIndex({ path, readonly: true })`). */
  open?: (path: string) => SqliteIndex;
  /**
   * Told once when the file at `path` was replaced but the new one cannot be opened (another
   * schema version, damaged): the version open before goes on serving until the file is replaced
   * again (that file is not tried again on every call).
   */
  onReopenError?: (error: unknown) => void;
}

/** A read-only SQLite index that follows its file when a new one replaces it; see {@link createLiveSqliteIndex}. */
export interface LiveSqliteIndex extends SqliteIndex, LeasableIndex {}

/** One opened version of the file, and who still reads it. */
interface OpenVersion {
  index: SqliteIndex;
  /** The file's device and inode when it was opened (undefined: it could not be read). */
  identity: string | undefined;
  /** Calls in flight and leases on this version. */
  holders: number;
  replaced: boolean;
  closed: boolean;
}

/** The methods of an SQLite index that a live index passes to the version a call reads. */
type ForwardedMethod = Exclude<
  { [K in keyof SqliteIndex]-?: NonNullable<SqliteIndex[K]> extends (...args: never[]) => Promise<unknown> ? K : never }[keyof SqliteIndex],
  'close'
>;

/**
 * For a long-lived reader (`atlas serve`, `atlas mcp`): the SQLite index at `path`, reopened when
 * the file there is replaced. `atlas ingest --rebuild` (and the first ingest of a new index)
 * builds a new file and renames it over the old one; a connection already open keeps reading
 * the old, unlinked file, so it would go on serving deleted pages and old access labels until a
 * restart. Every call outside a lease compares the file's identity (device and inode, one
 * `stat`) with the version it has open and opens the new file when it differs; an in-place ingest
 * keeps the file, and SQLite shows its commits to the open connection anyway.
 *
 * A {@link IndexLease} (`lease()`) keeps one version for a piece of work: every call inside its
 * `run`, and inside the async work started there, reads that version, so a request or an agent
 * run that started on the old index finishes on it (no `stat` per call either). A replaced
 * version is closed once no call and no lease holds it. A call made after its lease was released
 * (a run going on after its client went away) reads the newest version.
 *
 * @example
 * const index = createLiveSqliteIndex({ path: '.atlas/index.db' });
 * await index.search('lease', { k: 5 });          // the newest file
 * const lease = index.lease();
 * await lease.run(() => agenticRun(question, { model, index })); // one version, start to end
 * lease.release();
 */
export function createLiveSqliteIndex(options: LiveSqliteIndexOptions): LiveSqliteIndex {
  const { path } = options;
  const open = options.open ?? ((file: string) => createSqliteIndex({ path: file, readonly: true }));
  const leased = new AsyncLocalStorage<OpenVersion>();
  const versions = new Set<OpenVersion>();
  const openVersion = (): OpenVersion => {
    // The identity first: a file replaced in between is then opened again on the next call, never missed.
    const identity = fileIdentity(path);
    const version: OpenVersion = { index: open(path), identity, holders: 0, replaced: false, closed: false };
    versions.add(version);
    return version;
  };
  let current = openVersion();
  /** The identity of a replacement that could not be opened. */
  let unopenable: string | undefined;

  const closeIfUnused = (version: OpenVersion): void => {
    if (!version.replaced || version.holders > 0 || version.closed) return;
    version.closed = true;
    versions.delete(version);
    void version.index.close();
  };
  const newest = (): OpenVersion => {
    const identity = fileIdentity(path);
    // A file missing for now (moved away by hand) leaves the version open as it is.
    if (identity === undefined || identity === current.identity || identity === unopenable) return current;
    let next: OpenVersion;
    try {
      next = openVersion();
    } catch (error) {
      unopenable = identity;
      options.onReopenError?.(error);
      return current;
    }
    const previous = current;
    current = next;
    previous.replaced = true;
    closeIfUnused(previous);
    return current;
  };
  const reading = (): OpenVersion => {
    const held = leased.getStore();
    return held !== undefined && !held.closed ? held : newest();
  };
  const call = async <T>(work: (index: SqliteIndex) => Promise<T>): Promise<T> => {
    const version = reading();
    version.holders += 1;
    try {
      return await work(version.index);
    } finally {
      version.holders -= 1;
      closeIfUnused(version);
    }
  };
  const forward = <K extends ForwardedMethod>(name: K): SqliteIndex[K] =>
    ((...args: unknown[]) => call((index) => (index[name] as (...inner: unknown[]) => Promise<unknown>)(...args))) as SqliteIndex[K];

  return {
    path,
    get tokenizer() {
      return reading().index.tokenizer;
    },
    get weights() {
      return reading().index.weights;
    },
    search: forward('search'),
    getChunk: forward('getChunk'),
    neighbors: forward('neighbors'),
    ingest: forward('ingest'),
    ingestStream: forward('ingestStream'),
    indexVersion: forward('indexVersion'),
    stats: forward('stats'),
    documentFrequencies: forward('documentFrequencies'),
    releaseLines: forward('releaseLines'),
    labelValues: forward('labelValues'),
    docsRoot: forward('docsRoot'),
    recordDocsRoot: forward('recordDocsRoot'),
    seedVectors: forward('seedVectors'),
    vectorStatus: forward('vectorStatus'),
    syncVectors: forward('syncVectors'),
    searchVectors: forward('searchVectors'),

    lease(): IndexLease {
      const version = reading();
      version.holders += 1;
      let released = false;
      return {
        run: <T>(work: () => T): T => leased.run(version, work),
        release: () => {
          if (released) return;
          released = true;
          version.holders -= 1;
          closeIfUnused(version);
        },
      };
    },

    async close(): Promise<void> {
      for (const version of versions) {
        version.closed = true;
        await version.index.close();
      }
      versions.clear();
    },
  };
}

/** The file's device and inode (a rename over it changes them; writing into it does not), or undefined when it cannot be read. */
function fileIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? undefined : `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}
