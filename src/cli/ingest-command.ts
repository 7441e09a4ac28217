import path from 'node:path';
import type { Command } from 'commander';
import { loadCorpus } from '../corpus/index.ts';
import type { Doc } from '../corpus/types.ts';
import { AtlasError, CorpusError } from '../errors.ts';
import { replaceIndexFile } from '../index/sqlite-rebuild.ts';
import type { IngestReport } from '../index/types.ts';
import type { AtlasConfig } from '../config/schema.ts';
import type { SqliteIndex } from '../index/sqlite.ts';
import { commandConfig, configOption, modelLabelNotes } from './config-option.ts';
import { docsRoot } from './docs-root.ts';
import type { CliIO } from './io.ts';
import { busyTimeoutMs, dbOption, dbPath, openIndex, openIndexFile, positiveInt } from './options.ts';

interface IngestOptions {
  db: string;
  skipInvalid?: boolean;
  allowEmpty?: boolean;
  rebuild?: boolean;
  maxChunkChars?: number;
  json?: boolean;
  config?: string;
}

/** `atlas ingest <dir>`: load, validate and index a docs folder (atomic, incremental). */
export function registerIngestCommand(program: Command, io: CliIO): void {
  program
    .command('ingest')
    .description('Index a folder of markdown docs (a dataset folder, with docs/ and eval/*.jsonl, indexes its docs/).')
    .argument('<dir>', 'docs folder, or a dataset folder (docs/ + eval/*.jsonl)')
    .addOption(dbOption())
    .option('--skip-invalid', 'index the valid pages and list the invalid ones instead of failing')
    .option('--allow-empty', 'let a folder with no pages empty a non-empty index')
    .option('--rebuild', 'build the index from scratch (any schema version); the old one stays until the new one is complete')
    .option('--max-chunk-chars <n>', 'split sections longer than this at paragraph boundaries', positiveInt('--max-chunk-chars'))
    .addOption(configOption())
    .option('--json', 'print the ingest report as JSON')
    .action(async (dir: string, options: IngestOptions) => {
      const root = await docsRoot(io, dir);
      const { docs, problems } = await loadCorpus(root, options.maxChunkChars ? { maxChunkChars: options.maxChunkChars } : {});
      if (problems.length > 0 && !options.skipInvalid) throw new CorpusError(problems);
      // The folder given is the docs root the index records: atlas ask looks for atlas.config.yaml there.
      const given = path.resolve(io.cwd, dir);
      const config = await commandConfig(io, options, given);
      for (const problem of problems) io.stderr(`skipped ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.field}: ${problem.message}\n`);
      const file = dbPath(io, options.db);
      const context = { io, file, dir, given, config, docs, skipped: problems.length, options };
      const report = options.rebuild ? await rebuild(context) : await ingestInPlace(context);
      // As the user gave it (or the default): the spelling they recognise, whatever the cwd.
      const shown = options.db;
      if (options.json) {
        io.stdout(`${JSON.stringify({ db: file, docs: docs.length, skipped: problems.map((problem) => problem.file), rebuilt: options.rebuild === true, ...report })}\n`);
      } else {
        io.stdout(
          `Indexed ${docs.length} docs (${report.chunks} chunks) into ${shown}${options.rebuild ? ' (rebuilt from scratch)' : ''}: ` +
            `${report.added.length} added, ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.removed.length} removed.\n`,
        );
      }
    });
}

interface IngestContext {
  io: CliIO;
  file: string;
  dir: string;
  /** The folder given, absolute: recorded as the index's docs root. */
  given: string;
  config: AtlasConfig | undefined;
  docs: Doc[];
  skipped: number;
  options: IngestOptions;
}

/** The incremental ingest: one transaction into the existing index. */
async function ingestInPlace(context: IngestContext): Promise<IngestReport> {
  const index = openIndex(context.io, context.options.db, { write: true });
  try {
    if (context.docs.length === 0) refuseEmpty(context, (await index.stats()).docs);
    const report = await index.ingest(context.docs);
    await afterIngest(context, index);
    return report;
  } finally {
    await index.close();
  }
}

/** `--rebuild`: a new index in a temporary file, renamed over the old one once complete. */
async function rebuild(context: IngestContext): Promise<IngestReport> {
  if (context.docs.length === 0) refuseEmpty(context, await existingDocCount(context));
  return replaceIndexFile(context.file, async (temporary) => {
    const index = openIndexFile(context.io, temporary, { write: true });
    try {
      const report = await index.ingest(context.docs);
      await afterIngest(context, index);
      return report;
    } finally {
      await index.close();
    }
  }, { busyTimeoutMs: busyTimeoutMs(context.io) });
}

/** Records the docs root, and notes the config's model labels no public page carries. */
async function afterIngest(context: IngestContext, index: SqliteIndex): Promise<void> {
  await index.recordDocsRoot(context.given);
  for (const note of await modelLabelNotes(index, context.config, undefined)) context.io.stderr(`atlas: note: ${note}\n`);
}

/** Docs in the index `--rebuild` replaces; one that cannot be read (damaged, old schema) counts 0. */
async function existingDocCount(context: IngestContext): Promise<number> {
  try {
    const index = openIndexFile(context.io, context.file);
    try {
      return (await index.stats()).docs;
    } finally {
      await index.close();
    }
  } catch {
    return 0;
  }
}

/** Item of issue 9: a folder with no pages must not silently empty a non-empty index. */
function refuseEmpty(context: IngestContext, indexed: number): void {
  if (indexed === 0 || context.options.allowEmpty) return;
  const found = context.skipped > 0 ? `no valid pages (${context.skipped} skipped as invalid)` : 'no pages (.md or .mdx files)';
  throw new AtlasError(
    'invalid-corpus',
    `Atlas: ${context.dir} has ${found}; ingesting it would remove all ${indexed} docs from the index at ${context.options.db}. Nothing was changed. Check the folder, or pass --allow-empty to empty the index.`,
  );
}
