import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadCorpus } from '../corpus/index.ts';
import { AtlasError, CorpusError } from '../errors.ts';
import type { CliIO } from './io.ts';
import { dbOption, dbPath, openIndex, positiveInt } from './options.ts';

/** `atlas ingest <dir>`: load, validate and index a docs folder (atomic, incremental). */
export function registerIngestCommand(program: Command, io: CliIO): void {
  program
    .command('ingest')
    .description('Index a folder of markdown docs (a dataset folder with docs/ works too).')
    .argument('<dir>', 'docs folder, or a dataset folder containing docs/')
    .addOption(dbOption())
    .option('--skip-invalid', 'index the valid pages and list the invalid ones instead of failing')
    .option('--max-chunk-chars <n>', 'split sections longer than this at paragraph boundaries', positiveInt('--max-chunk-chars'))
    .option('--json', 'print the ingest report as JSON')
    .action(async (dir: string, options: { db: string; skipInvalid?: boolean; maxChunkChars?: number; json?: boolean }) => {
      const root = await docsRoot(path.resolve(io.cwd, dir));
      const { docs, problems } = await loadCorpus(root, options.maxChunkChars ? { maxChunkChars: options.maxChunkChars } : {});
      if (problems.length > 0 && !options.skipInvalid) throw new CorpusError(problems);
      for (const problem of problems) io.stderr(`skipped ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.field}: ${problem.message}\n`);
      const index = openIndex(io, options.db);
      try {
        const report = await index.ingest(docs);
        if (options.json) {
          io.stdout(`${JSON.stringify({ db: dbPath(io, options.db), docs: docs.length, skipped: problems.map((problem) => problem.file), ...report })}\n`);
        } else {
          io.stdout(
            `Indexed ${docs.length} docs (${report.chunks} chunks) into ${path.relative(io.cwd, dbPath(io, options.db)) || dbPath(io, options.db)}: ` +
              `${report.added.length} added, ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.removed.length} removed.\n`,
          );
        }
      } finally {
        await index.close();
      }
    });
}

/** A dataset folder (with docs/ inside) or a docs folder itself. */
async function docsRoot(dir: string): Promise<string> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new AtlasError('usage', `Atlas: docs folder not found: ${dir}. Pass a folder of .md files, e.g. atlas ingest datasets/orbit.`);
  }
  const nested = path.join(dir, 'docs');
  return (await stat(nested).catch(() => undefined))?.isDirectory() ? nested : dir;
}
