/**
 * `npx tsx bench/chunk-stats.ts <docs-dir>... [--json] [--rounds 5] [--max-chunk-chars N]
 *   [--min-chunk-chars N] [--split-depth N] [--heading-split-chars N]`
 *
 * How the corpus layer cuts real docs folders: per folder, the chunk count, the p50, p95 and
 * max of the chunks' text length in characters, the chunks under `minChunkChars` meaningful
 * characters (heading and text, see `meaningfulLength`), under 200 characters of text, empty, and over
 * `maxChunkChars`; then the parse throughput on the same pages (parseDocument only, files already
 * in memory), best and median of `--rounds` rounds. docs/chunking.md records the numbers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus, parseDocument, resolveChunkingOptions, type ChunkingOptions } from '../src/corpus/index.ts';
import { meaningfulLength } from '../src/corpus/markdown/meaningful-length.ts';
import { CHUNKING_FLAGS, chunkingOptionsFrom } from './chunking-flags.ts';

/** The numbers for one docs folder. */
interface FolderStats {
  folder: string;
  docs: number;
  chunks: number;
  p50: number;
  p95: number;
  max: number;
  belowMin: number;
  under200: number;
  empty: number;
  overMax: number;
  parse: { bestMs: number; medianMs: number; chunksPerSecond: number; mbPerSecond: number };
}

/** Nearest-rank percentile of sorted values. */
const rank = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;

async function folderStats(folder: string, options: ChunkingOptions, rounds: number): Promise<FolderStats> {
  const resolved = resolveChunkingOptions(options);
  const { docs, problems } = await loadCorpus(folder, options);
  if (problems.length > 0) process.stderr.write(`${folder}: ${problems.length} invalid pages left out\n`);
  const chunks = docs.flatMap((doc) => doc.chunks);
  const sizes = chunks.map((chunk) => chunk.text.length).sort((a, b) => a - b);

  const pages = docs.map((doc) => ({ path: doc.sourcePath, bytes: readFileSync(join(folder, doc.sourcePath)) }));
  const megabytes = pages.reduce((sum, page) => sum + page.bytes.length, 0) / 1e6;
  const times: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const start = performance.now();
    for (const page of pages) parseDocument(page, options);
    if (round > 0) times.push(performance.now() - start); // round 0 warms up
  }
  times.sort((a, b) => a - b);
  const bestMs = times[0]!;
  return {
    folder,
    docs: docs.length,
    chunks: chunks.length,
    p50: rank(sizes, 0.5),
    p95: rank(sizes, 0.95),
    max: rank(sizes, 1),
    belowMin: chunks.filter((chunk) => meaningfulLength(`${chunk.heading}\n${chunk.text}`) < resolved.minChunkChars).length,
    under200: sizes.filter((size) => size < 200).length,
    empty: chunks.filter((chunk) => chunk.text.trim() === '').length,
    overMax: chunks.filter((chunk) => chunk.text.length > resolved.maxChunkChars).length,
    parse: {
      bestMs: Math.round(bestMs),
      medianMs: Math.round(rank(times, 0.5)),
      chunksPerSecond: Math.round((chunks.length / bestMs) * 1000),
      mbPerSecond: Number((megabytes / (bestMs / 1000)).toFixed(2)),
    },
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '5' },
      ...CHUNKING_FLAGS,
    },
  });
  if (positionals.length === 0) throw new Error('Pass one or more docs folders, e.g. npx tsx bench/chunk-stats.ts datasets/orbit/docs');
  const options = chunkingOptionsFrom(values);
  const results: FolderStats[] = [];
  for (const folder of positionals) results.push(await folderStats(folder, options, Number(values.rounds)));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ options: resolveChunkingOptions(options), results })}\n`);
    return;
  }
  const header = ['folder', 'docs', 'chunks', 'p50', 'p95', 'max', 'below min', '< 200 chars', 'empty', 'over max', 'parse ms', 'ch/s', 'MB/s'];
  const rows = results.map((r) =>
    [r.folder, r.docs, r.chunks, r.p50, r.p95, r.max, r.belowMin, r.under200, r.empty, r.overMax, r.parse.bestMs, r.parse.chunksPerSecond, r.parse.mbPerSecond].map(String),
  );
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n${JSON.stringify(resolveChunkingOptions(options))}\n`);
}

await main();
