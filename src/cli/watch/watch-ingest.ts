import path from 'node:path';
import { isPostgresUrl } from '../../index/postgres/postgres-url.ts';
import { AtlasError } from '../../errors.ts';
import { createCorpusMemory } from '../../corpus/index.ts';
import { runIngest, type IngestOutcome, type IngestPlan } from '../commands/ingest-run.ts';
import type { CreateFolderWatcher } from './folder-watcher.ts';
import { createIngestWatcher, type IngestWatcher, type WatchTimers } from './ingest-watcher.ts';
import { watchIgnore } from './watch-paths.ts';

/** What tests inject into `--watch`: the file watcher, the timers, the debounce. */
export interface WatchDeps {
  createWatcher?: CreateFolderWatcher;
  timers?: WatchTimers;
  debounceMs?: number;
  maxWaitMs?: number;
}

/**
 * `--watch` of `atlas ingest` and `atlas serve`: watches the plan's docs folder and runs the
 * same ingest as `atlas ingest` (atomic, incremental by content hash) after each burst of
 * changes, reading and parsing only the pages changed (the plan's `memory`: a page, its sidecar,
 * a folder rule above it; after a watch error, every page); `onIngested` is told each committed ingest with the pages changed (relative to the
 * folder). A failed ingest is written to stderr, naming the changes, and watching goes on with
 * the index as it was. A `--rebuild` applies to the first ingest only.
 *
 * @example
 * const watcher = await startIngestWatch(plan, { onIngested: (outcome, changes) => print(outcome) });
 * await stopRequested();
 * await watcher.close();
 */
export async function startIngestWatch(
  plan: IngestPlan,
  options: { onIngested: (outcome: IngestOutcome, changes: string[], ms: number) => void; deps?: WatchDeps },
): Promise<IngestWatcher> {
  const { io, root } = plan;
  // The pages as last parsed (the first ingest's, when the plan was made for watching): each ingest reads and parses the changed ones only.
  const memory = plan.memory ?? createCorpusMemory();
  const next: IngestPlan = { ...plan, memory, options: { ...plan.options, rebuild: false } };
  const indexFiles = isPostgresUrl(plan.options.db) ? [] : [plan.file];
  const relative = (changes: string[]) => changes.map((file) => path.relative(root, file).split(path.sep).join('/') || '.');
  const watcher = createIngestWatcher<IngestOutcome>({
    root,
    ingest: (changes) => {
      memory.changed(relative(changes));
      return runIngest(next);
    },
    ignored: watchIgnore(root, indexFiles),
    ...options.deps,
    onEvent: (event) => {
      if (event.type === 'ingest-end') options.onIngested(event.result, relative(event.changes), event.ms);
      else if (event.type === 'ingest-error') io.stderr(`${watchFailure(event.error, `the ingest after changes to ${listed(relative(event.changes))}`, plan.shown)}\n`);
      else if (event.type === 'watch-error') {
        // A change may have been missed: the next ingest reads every page.
        memory.clear();
        io.stderr(`atlas: watch: ${event.error.message}. Watching goes on; a change Atlas missed is indexed with the next one, or run atlas ingest ${plan.dir} --db ${plan.shown}.\n`);
      }
    },
  });
  await watcher.ready;
  io.stderr(`atlas: watching ${plan.dir} for changes (Ctrl-C stops)\n`);
  return watcher;
}

/**
 * The message of a failed ingest while watching: which ingest (`the ingest after changes to
 * guide.md`), that the index keeps its previous version, the fix, then the error's own message.
 */
export function watchFailure(error: unknown, which: string, shown: string): string {
  const message = error instanceof AtlasError || error instanceof Error ? error.message : String(error);
  return (
    `atlas: watch: ${which} failed; ${shown} keeps its previous version and searches read it. Still watching: fix the page and save it again.\n` +
    message.replace(/\n$/, '')
  );
}

function listed(files: string[]): string {
  return files.length <= 5 ? files.join(', ') : `${files.slice(0, 5).join(', ')} and ${files.length - 5} more`;
}
