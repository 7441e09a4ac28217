import type { Command } from 'commander';
import type { Hit } from '../../index/types.ts';
import type { CliIO } from '../io.ts';
import { cliFilter, groupsOption, labelOption, type AccessOptions } from '../options/access-options.ts';
import { commandConfig, configOption } from '../options/config-option.ts';
import { dbOption, positiveInt, versionOption } from '../options/options.ts';
import { readDbOption } from '../options/read-db.ts';
import { embedOption, modeOption, rerankOption, openSearchIndex, type RetrievalCliOptions } from '../options/embed-option.ts';
import { releaseLineNotes } from '../options/release-lines.ts';
import { indexPresent, requireIndex } from '../require-index.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

/** `atlas search "<query>"`: one search (BM25; vector or hybrid with --embed, docs/vectors.md), as a table or JSON (`{query, hits, notes}`); `--config` is validated, not used. */
export function registerSearchCommand(program: Command, io: CliIO): void {
  program
    .command('search')
    .description(COMMAND_SUMMARIES.search!.description)
    .argument('<query>', 'any text: words, identifiers, a question')
    .option('--k <n>', 'number of results', positiveInt('--k'), 5)
    .addOption(versionOption())
    .addOption(labelOption())
    .addOption(groupsOption())
    .addOption(dbOption())
    .addOption(readDbOption())
    .addOption(configOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .option('--json', 'print {query, hits, notes} as JSON')
    .action(async (query: string, options: AccessOptions & RetrievalCliOptions & { k: number; db: string; json?: boolean; config?: string }) => {
      const filter = cliFilter(io.env, options);
      // A search uses neither model labels nor a policy; the config is only checked, as every
      // command checks it, against the docs root the index records (opened once, for both).
      if (!(await indexPresent(io, options.db))) {
        await commandConfig(io, options, undefined);
        await requireIndex(io, options.db);
      }
      const index = await openSearchIndex(io, options);
      try {
        await commandConfig(io, options, await index.docsRoot().catch(() => undefined));
        const notes = await releaseLineNotes(index, options.version);
        for (const note of notes) io.stderr(`atlas: note: ${note}\n`);
        const hits = await index.search(query, { k: options.k, ...(filter ? { filter } : {}) });
        if (options.json) io.stdout(`${JSON.stringify({ query, hits: hits.map(hitJson), notes })}\n`);
        else io.stdout(formatHits(hits));
      } finally {
        await index.close();
      }
    });
}

/**
 * A hit as `atlas search --json` prints it (and `GET /v1/search` answers it).
 *
 * @example
 * hitJson(hit); // { chunkId: "leases#1", docId: "leases", heading, appliesTo, score: 4.2, snippet, sourcePath, startLine, endLine }
 */
export function hitJson(hit: Hit) {
  return {
    chunkId: hit.chunkId,
    docId: hit.docId,
    heading: hit.heading,
    appliesTo: hit.appliesTo,
    score: Math.round(hit.score * 1000) / 1000,
    snippet: hit.snippet,
    sourcePath: hit.sourcePath,
    startLine: hit.startLine,
    endLine: hit.endLine,
  };
}

/** A readable table: rank, score, doc, heading, snippet. */
export function formatHits(hits: Hit[]): string {
  if (hits.length === 0) return 'No matches.\n';
  const rows = hits.map((hit, rank) => [
    String(rank + 1),
    hit.score.toFixed(2),
    hit.docId,
    truncate(hit.heading, 32),
    truncate(hit.snippet, 90),
  ]);
  const header = ['#', 'score', 'doc', 'heading', 'snippet'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return `${[line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')}\n`;
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
