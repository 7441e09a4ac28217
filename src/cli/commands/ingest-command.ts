import type { Command } from 'commander';
import { configOption } from '../options/config-option.ts';
import type { CliIO } from '../io.ts';
import { dbOption, positiveInt } from '../options/options.ts';
import { embedOption } from '../options/embed-option.ts';
import type { VectorSyncReport } from '../../index/vectors/vector-types.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { processStopSignal } from '../stop-signal.ts';
import type { WatchDeps } from '../watch/watch-ingest.ts';
import { planIngest, runIngest, type IngestOptions, type IngestOutcome, type IngestPlan } from './ingest-run.ts';

/** What `atlas ingest --watch` waits on; tests pass their own. */
export interface IngestCommandDeps {
  /** Resolves with a name (`SIGINT`) when watching should stop (default: the first SIGINT or SIGTERM of the process). */
  stopRequested?: () => Promise<string>;
  watch?: WatchDeps;
}

/** `atlas ingest <dir>`: load, validate and index a docs folder (atomic, incremental); `--watch` keeps it indexed. */
export function registerIngestCommand(program: Command, io: CliIO, deps: IngestCommandDeps = {}): void {
  program
    .command('ingest')
    .description(COMMAND_SUMMARIES.ingest!.description)
    .argument('<dir>', 'docs folder, or a dataset folder (docs/ + eval/*.jsonl)')
    .addOption(dbOption())
    .option('--skip-invalid', 'index the valid pages and list the invalid ones instead of failing')
    .option('--allow-empty', 'let a folder with no pages empty a non-empty index')
    .option('--rebuild', 'build the index from scratch (any schema version); the old one stays until the new one is complete')
    .option('--max-chunk-chars <n>', 'split sections longer than this at paragraph boundaries', positiveInt('--max-chunk-chars'))
    .addOption(configOption())
    .addOption(embedOption())
    .option('--watch', 'stay running and index the folder again when a file changes, is added or removed (debounced; Ctrl-C stops)')
    .option('--json', 'print the ingest report as JSON (with --watch: one line per ingest)')
    .action(async (dir: string, options: IngestOptions & { watch?: boolean }) => {
      const plan = await planIngest(io, dir, options);
      if (!options.watch) {
        printOutcome(plan, await runIngest(plan));
        return;
      }
      await watchFolder(plan, deps);
    });
}

/**
 * `--watch`: the first ingest, then one after each burst of changes until SIGINT/SIGTERM. A first
 * ingest that fails on the folder's pages (an invalid page) is reported and watching starts
 * anyway, so saving the fixed page indexes it; any other failure (the index cannot be opened)
 * ends the command as without --watch.
 */
async function watchFolder(plan: IngestPlan, deps: IngestCommandDeps): Promise<void> {
  const { io } = plan;
  // Loaded only with --watch: a plain ingest does not load the file watcher (src/cli/import-graph.test.ts).
  const { startIngestWatch, watchFailure } = await import('../watch/watch-ingest.ts');
  try {
    printOutcome(plan, await runIngest(plan));
  } catch (error) {
    if ((error as { code?: string }).code !== 'invalid-corpus') throw error;
    io.stderr(`${watchFailure(error, `the first ingest of ${plan.dir}`, plan.shown)}\n`);
  }
  const watcher = await startIngestWatch(plan, { onIngested: (outcome, changes, ms) => printOutcome(plan, outcome, { changes, ms }), ...(deps.watch ? { deps: deps.watch } : {}) });
  const signal = await (deps.stopRequested ?? processStopSignal)();
  io.stderr(`atlas ingest: ${signal}: stopping\n`);
  await watcher.close();
  io.stderr('atlas ingest: stopped watching\n');
}

/** The report of one ingest on stdout (JSON, or one line); in watch mode with the files that changed and how long it took. */
function printOutcome(plan: IngestPlan, { report, skipped, parsed }: IngestOutcome, watched?: { changes: string[]; ms: number }): void {
  const { io, options } = plan;
  const indexed = report.added.length + report.updated.length + report.unchanged.length;
  const rebuilt = options.rebuild === true && watched === undefined;
  if (options.json) {
    const extra = watched ? { changes: watched.changes, parsed, ms: Math.round(watched.ms) } : {};
    io.stdout(`${JSON.stringify({ db: plan.file, docs: indexed, skipped, rebuilt, ...report, ...extra })}\n`);
    return;
  }
  if (watched) io.stderr(`atlas: changed: ${watched.changes.join(', ')}\n`);
  io.stdout(
    `Indexed ${indexed} docs (${report.chunks} chunks) into ${plan.shown}${rebuilt ? ' (rebuilt from scratch)' : ''}: ` +
      `${report.added.length} added, ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.removed.length} removed${watched ? ` (${parsed.length} page${parsed.length === 1 ? '' : 's'} parsed, ${Math.round(watched.ms)} ms)` : ''}.\n`,
  );
  if (report.vectors) io.stdout(vectorLine(report.vectors));
}

/** The line the text output adds for an embedding run. */
function vectorLine(vectors: VectorSyncReport): string {
  return `Embedded ${vectors.embedded} chunks with ${vectors.model} (${vectors.reused} reused by content hash, ${vectors.calls} calls); ${vectors.vectors} vectors of ${vectors.dimensions} dimensions.\n`;
}
