/**
 * `npm run bench [-- --json] [-- --sizes 10000,100000] [-- --queries 200] [-- --seed 42]`
 *
 * Generates a seeded synthetic markdown corpus, parses it with the corpus layer
 * (parseDocument), ingests it into the SQLite index (file db, WAL) and into MiniSearch in the
 * same process, then times the same queries on both. Progress goes to stderr; the table (or one
 * JSON object with --json) to stdout.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDocument } from '../src/corpus/parse-document.ts';
import type { Chunk, Doc } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite.ts';
import type { SearchFilter } from '../src/index/types.ts';
import { createSyntheticCorpus } from './corpus.ts';
import { summarize, timeEach, type Timings } from './measure.ts';
import { createMiniSearchBaseline } from './minisearch-baseline.ts';
import { formatTable } from './report.ts';

/** Everything measured at one corpus size. */
export interface SizeResult {
  chunks: number;
  docs: number;
  markdownMB: number;
  ingest: {
    parseChunksPerSecond: number;
    sqliteChunksPerSecond: number;
    parseAndSqliteChunksPerSecond: number;
    reingestUnchangedMs: number;
    reingestOnePercentChangedMs: number;
    dbMB: number;
    minisearchChunksPerSecond: number;
  };
  search: {
    queries: number;
    k: number;
    sqlite: Timings;
    minisearch: Timings;
    /** sqlite / minisearch: below 1 means SQLite is faster. */
    ratioP50: number;
    ratioP99: number;
    sqliteZeroHitQueries: number;
    minisearchZeroHitQueries: number;
    /** Mean share of the top-k chunk ids both engines return. */
    overlapAtK: number;
  };
}

const now = () => performance.now();
const progress = (message: string) => process.stderr.write(`${message}\n`);
const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

async function benchSize(targetChunks: number, queryCount: number, seed: number, scratch: string): Promise<SizeResult> {
  const corpus = createSyntheticCorpus(seed);
  const docs: Doc[] = [];
  let chunks = 0;
  let markdownBytes = 0;
  let parseMs = 0;
  while (chunks < targetChunks) {
    const page = corpus.page(docs.length);
    const bytes = Buffer.from(page.markdown);
    markdownBytes += bytes.length;
    const start = now();
    const parsed = parseDocument({ path: page.path, bytes });
    parseMs += now() - start;
    if (!parsed.ok) throw new Error(`bench page ${page.path} did not parse: ${JSON.stringify(parsed.problems)}`);
    docs.push(parsed.doc);
    chunks += parsed.doc.chunks.length;
  }
  progress(`  ${chunks} chunks in ${docs.length} docs parsed in ${Math.round(parseMs)} ms`);

  const path = join(scratch, `bench-${targetChunks}.db`);
  const index = createSqliteIndex({ path });
  let start = now();
  await index.ingest(docs);
  const sqliteMs = now() - start;
  progress(`  sqlite ingest ${Math.round(sqliteMs)} ms`);
  start = now();
  await index.ingest(docs);
  const reingestUnchangedMs = now() - start;
  const changed = docs.map((doc, n) => (n % 100 === 0 ? touch(doc) : doc));
  start = now();
  await index.ingest(changed);
  const reingestOnePercentChangedMs = now() - start;

  const allChunks: Chunk[] = changed.flatMap((doc) => doc.chunks);
  start = now();
  const baseline = createMiniSearchBaseline(allChunks);
  const minisearchMs = now() - start;
  progress(`  minisearch index ${Math.round(minisearchMs)} ms`);

  const k = 10;
  const queries = Array.from({ length: queryCount }, () => corpus.query());
  const filterOf = (n: number): SearchFilter | undefined => (n % 2 === 0 ? undefined : { version: '3.x' });
  const sqliteIds: string[][] = [];
  const miniIds: string[][] = [];
  const sqliteDurations = await timeEach(queries, async (query, n) => {
    sqliteIds[n] = (await index.search(query, { k, filter: filterOf(n) })).map((hit) => hit.chunkId);
  }, now, 20);
  const miniDurations = await timeEach(queries, (query, n) => {
    miniIds[n] = baseline.search(query, { k, filter: filterOf(n) });
  }, now, 20);
  await index.close();
  const dbBytes = [path, `${path}-wal`].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);

  const sqlite = summarize(sqliteDurations);
  const minisearch = summarize(miniDurations);
  return {
    chunks,
    docs: docs.length,
    markdownMB: round(markdownBytes / 1e6, 1),
    ingest: {
      parseChunksPerSecond: perSecond(chunks, parseMs),
      sqliteChunksPerSecond: perSecond(chunks, sqliteMs),
      parseAndSqliteChunksPerSecond: perSecond(chunks, parseMs + sqliteMs),
      reingestUnchangedMs: Math.round(reingestUnchangedMs),
      reingestOnePercentChangedMs: Math.round(reingestOnePercentChangedMs),
      dbMB: round(dbBytes / 1e6, 1),
      minisearchChunksPerSecond: perSecond(chunks, minisearchMs),
    },
    search: {
      queries: queryCount,
      k,
      sqlite,
      minisearch,
      ratioP50: round(sqlite.p50 / minisearch.p50, 2),
      ratioP99: round(sqlite.p99 / minisearch.p99, 2),
      sqliteZeroHitQueries: sqliteIds.filter((ids) => ids.length === 0).length,
      minisearchZeroHitQueries: miniIds.filter((ids) => ids.length === 0).length,
      overlapAtK: round(mean(sqliteIds.map((ids, n) => overlap(ids, miniIds[n] ?? []))), 2),
    },
  };
}

/** The same document with new content in every chunk (a changed hash). */
function touch(doc: Doc): Doc {
  return {
    ...doc,
    contentHash: `${doc.contentHash}-changed`,
    chunks: doc.chunks.map((chunk) => ({ ...chunk, text: `${chunk.text} Changed.` })),
  };
}

function overlap(a: string[], b: string[]): number {
  const size = Math.max(a.length, b.length);
  if (size === 0) return 1;
  const inB = new Set(b);
  return a.filter((id) => inB.has(id)).length / size;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const round = (value: number, digits: number) => Number(value.toFixed(digits));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '10000,100000' },
      queries: { type: 'string', default: '200' },
      seed: { type: 'string', default: '42' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const queryCount = Number(values.queries);
  const seed = Number(values.seed);
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-bench-'));
  const started = now();
  try {
    const results: SizeResult[] = [];
    for (const size of sizes) {
      progress(`bench: ${size} chunks`);
      results.push(await benchSize(size, queryCount, seed, scratch));
    }
    const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, seed, totalSeconds: round((now() - started) / 1000, 1) };
    if (values.json) process.stdout.write(`${JSON.stringify({ environment, results })}\n`);
    else process.stdout.write(`${formatTable(results)}\n${JSON.stringify(environment)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
