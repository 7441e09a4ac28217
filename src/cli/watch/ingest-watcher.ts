import { chokidarFolderWatcher, type CreateFolderWatcher, type FolderWatcher } from './folder-watcher.ts';

/** How long the folder must be quiet after a change before it is ingested (ms). */
export const DEFAULT_DEBOUNCE_MS = 300;
/** The longest a change waits while changes keep coming (ms): a steady stream of saves still gets ingested. */
export const DEFAULT_MAX_WAIT_MS = 1_000;

/** The clock and timers of a watcher: the process's by default, a manual clock in tests. */
export interface WatchTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real timers. */
export const processTimers: WatchTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What a watcher tells: an ingest starting (the paths changed since the last), its end, its failure, a watch error. */
export type WatchEvent<T> =
  | { type: 'ingest-start'; changes: string[] }
  | { type: 'ingest-end'; changes: string[]; result: T; ms: number }
  | { type: 'ingest-error'; changes: string[]; error: unknown; ms: number }
  | { type: 'watch-error'; error: Error };

/** Options of {@link createIngestWatcher}. */
export interface IngestWatcherOptions<T> {
  /** The folder to watch (absolute). */
  root: string;
  /** One ingest of the whole folder; `changes` are the paths that changed since the last (absolute). */
  ingest: (changes: string[]) => Promise<T>;
  /** Told every event; must not throw. */
  onEvent: (event: WatchEvent<T>) => void;
  /** Paths not watched (see `watchIgnore`). Default: none. */
  ignored?: (file: string) => boolean;
  debounceMs?: number;
  maxWaitMs?: number;
  timers?: WatchTimers;
  createWatcher?: CreateFolderWatcher;
}

/** A running watcher; see {@link createIngestWatcher}. */
export interface IngestWatcher {
  /** Resolves once the folder is watched. */
  ready: Promise<void>;
  /** Resolves when no ingest is running (an ingest already started, and any started right after it, has ended). */
  idle(): Promise<void>;
  /** Stops watching, cancels a pending ingest and waits for a running one to end (it commits or rolls back whole). */
  close(): Promise<void>;
}

/**
 * Watches `root` and ingests it again after changes: once the folder has been quiet for
 * `debounceMs` (default 300), or `maxWaitMs` (default 1000) after the first change while
 * changes keep coming, so a burst of saves (an editor's temp file and rename, a `git checkout`)
 * is one ingest. Ingests never overlap: changes made during one are ingested after it. A failed
 * ingest is reported (`ingest-error`) and watching goes on; the ingest itself is one transaction,
 * so the index keeps its previous version. Searches are never waited on: the ingest writes while
 * readers read the last committed version.
 *
 * @example
 * const watcher = createIngestWatcher({ root: '/abs/docs', ingest: () => runIngest(plan), onEvent: (event) => log(event) });
 * await watcher.ready;
 * // ... on SIGINT:
 * await watcher.close();
 */
export function createIngestWatcher<T>(options: IngestWatcherOptions<T>): IngestWatcher {
  const timers = options.timers ?? processTimers;
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const pending = new Set<string>();
  let firstPendingAt: number | undefined;
  let timer: unknown;
  let running: Promise<void> | undefined;
  let closed = false;

  const schedule = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    const now = timers.now();
    firstPendingAt ??= now;
    const delay = Math.max(0, Math.min(debounceMs, firstPendingAt + maxWaitMs - now));
    timer = timers.setTimeout(flush, delay);
  };
  const ingestOnce = async (changes: string[]): Promise<void> => {
    const started = timers.now();
    options.onEvent({ type: 'ingest-start', changes });
    try {
      const result = await options.ingest(changes);
      options.onEvent({ type: 'ingest-end', changes, result, ms: timers.now() - started });
    } catch (error) {
      options.onEvent({ type: 'ingest-error', changes, error, ms: timers.now() - started });
    }
  };
  function flush(): void {
    timer = undefined;
    if (running !== undefined || closed || pending.size === 0) return;
    const changes = [...pending].sort();
    pending.clear();
    firstPendingAt = undefined;
    running = ingestOnce(changes).finally(() => {
      running = undefined;
      if (pending.size > 0 && !closed) schedule();
    });
  }
  const onChange = (file: string): void => {
    if (closed) return;
    pending.add(file);
    // While an ingest runs, its end schedules the next.
    if (running === undefined) schedule();
  };

  const watcher: FolderWatcher = (options.createWatcher ?? chokidarFolderWatcher)(options.root, { ignored: options.ignored ?? (() => false) });
  watcher.onChange(onChange);
  watcher.onError((error) => options.onEvent({ type: 'watch-error', error }));

  return {
    ready: watcher.ready,
    async idle() {
      while (running !== undefined) await running;
    },
    async close() {
      closed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await watcher.close();
      while (running !== undefined) await running;
    },
  };
}
