/**
 * `npm run bench:scale [-- --sizes 10000,100000,1000000] [-- --rounds 6] [-- --json]`
 *
 * Search at scale: Atlas beside raw FTS5 (the straightforward OR query over the same FTS5 table)
 * and, where the machine has a JDK and Lucene 8's jars, Lucene's BM25 over the same tokens
 * (bench/lucene.ts), at 10k, 100k and 1M chunks of realistic text (bench/musique-corpus.ts: the real MuSiQue
 * passages replicated and regrouped), with the set's real multi-term questions, every question
 * `rounds` times, half of them filtered to version 3.x, top 10. Reports p50/p99 (wall and CPU),
 * the growth exponent between sizes, peak RSS of each engine's process and the database's size
 * on disk. The databases are built once per size and kept in `--cache` (default
 * `<tmpdir>/atlas-scale`; 1M chunks take about 5 minutes to build): delete the folder to rebuild.
 * Each engine runs in a child process of its own (`--child`), so its peak RSS is its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { filterClause } from '../src/index/filter.ts';
import { buildSearchQuery, quoteTerm } from '../src/index/engine/query.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createStatementCache } from '../src/index/sql-rows.ts';
import { createFts5Tokenizer } from '../src/index/analysis/fts5-tokens.ts';
import { createPostingsReader } from '../src/index/engine/postings-store.ts';
import { topByBm25 } from '../src/index/engine/postings-search.ts';
import { DEFAULT_TOKENIZER } from '../src/index/analysis/tokenize.ts';
import type { BenchQuery } from './engine-child.ts';
import { plainTerms } from './engines.ts';
import { peakRssMB, summarize, warmUp, WARMUP_MS } from './measure.ts';
import { benchQueries, musiqueFolder, queryFilter, readPassages, readQuestions, warmupQuestions } from './musique-corpus.ts';
import { cachedLuceneIndex, luceneClasspath, runLucene } from './lucene.ts';
import { cachedReferenceDb, cachedScaleDb } from './scale-db.ts';
import { formatScale, meanOverlap, SCALE_ENGINES, type ScaleEngine, type ScaleSizeResult } from './scale-report.ts';

/** What one engine's child reports. */
interface ScaleChildResult {
  engine: ScaleEngine;
  durations: number[];
  cpuDurations: number[];
  ids: string[][];
  peakRssMB: number;
  openMs: number;
  /** atlas: of the queries checked, how many returned exactly FTS5's bm25() top k of the same terms (ids and scores). */
  verified?: { same: number; of: number };
}

const progress = (message: string) => process.stderr.write(`${message}\n`);
const round = (value: number, digits: number) => Number(value.toFixed(digits));
const megabytes = (bytes: number) => round(bytes / 1e6, 1);

/** Atlas's default column weights, and the same as the reference's `bm25()` call (columns in that order). */
const WEIGHTS = [2, 3, 0.5, 1, 1];
const RAW_BM25 = `bm25(chunks_fts, ${WEIGHTS.join(', ')})`;

/** A searcher over the database at `path` (Atlas's, or the raw FTS5 reference): chunk ids of the top k. */
function openEngine(
  engine: ScaleEngine,
  path: string,
  referencePath: string,
): { search(query: BenchQuery, k: number): Promise<string[]>; verify?(query: BenchQuery, k: number): boolean; close(): void } {
  const where = (query: BenchQuery) => filterClause(queryFilter(query), 'c', { restricted: false });
  if (engine === 'atlas') {
    const index = createSqliteIndex({ path, readonly: true });
    // The check: Atlas's BM25 top k over its terms (words and identifier expansions), ids and
    // scores, against FTS5's bm25() of the same terms over the same columns in the reference.
    const db = new Database(path, { readonly: true });
    const statements = createStatementCache(db);
    const reader = createPostingsReader((sql) => statements.get(sql));
    const tokens = createFts5Tokenizer({ porter: true });
    const reference = new Database(referencePath, { readonly: true });
    const passes = (query: BenchQuery) => {
      const clause = where(query);
      const statement = statements.get(`SELECT 1 FROM chunks c WHERE c.id = ?${clause.sql}`).pluck();
      return clause.sql === '' ? undefined : (id: number) => statement.get(id, ...clause.params) !== undefined;
    };
    return {
      async search(query, k) {
        const hits = await index.search(query.query, { k, filter: queryFilter(query) });
        return hits.map((hit) => hit.chunkId);
      },
      verify(query, k) {
        const built = buildSearchQuery(query.query, DEFAULT_TOKENIZER);
        if (built === undefined) return true;
        const ours = topByBm25(reader, { tokens: built.terms.flatMap((term) => tokens.tokens(term)), weights: WEIGHTS, k, accept: passes(query) });
        const clause = where(query);
        const theirs = reference
          .prepare(
            `SELECT c.id AS id, -${RAW_BM25} AS score FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
             WHERE chunks_fts MATCH ?${clause.sql} ORDER BY score DESC, c.id LIMIT ?`,
          )
          .all(built.terms.map(quoteTerm).join(' OR '), ...clause.params, k);
        return JSON.stringify(ours) === JSON.stringify(theirs);
      },
      close: () => {
        void index.close();
        db.close();
        reference.close();
      },
    };
  }
  // Raw FTS5 the straightforward way, over the reference's one FTS5 table: the query's words
  // minus stopwords OR-ed, the version filter in the WHERE clause, ORDER BY bm25 LIMIT k.
  const db = new Database(referencePath, { readonly: true });
  // The chunk ids of the k rows are read afterwards (as any caller must), by rowid.
  const unfiltered = db
    .prepare(
      `WITH top AS (SELECT rowid AS id, ${RAW_BM25} AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?)
       SELECT c.chunk_id FROM top JOIN chunks c ON c.id = top.id ORDER BY top.rank`,
    )
    .pluck();
  const filtered = db
    .prepare(
      `SELECT c.chunk_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND c.applies_to IN (?, 'all') ORDER BY ${RAW_BM25} LIMIT ?`,
    )
    .pluck();
  return {
    async search(query, k) {
      const terms = plainTerms(query.query);
      if (terms.length === 0) return [];
      const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
      return (query.version === null ? unfiltered.all(match, k) : filtered.all(match, query.version, k)) as string[];
    },
    close: () => db.close(),
  };
}

async function runChild(engine: ScaleEngine, path: string, referencePath: string, queriesPath: string, k: number, warmupPath: string): Promise<ScaleChildResult> {
  const queries = JSON.parse(readFileSync(queriesPath, 'utf8')) as BenchQuery[];
  const opened = performance.now();
  const searcher = openEngine(engine, path, referencePath);
  const openMs = performance.now() - opened;
  // Warm-up on other questions (untimed): the JIT compiles the search before it is timed.
  await warmUp(JSON.parse(readFileSync(warmupPath, 'utf8')) as BenchQuery[], (query) => searcher.search(query, k), () => performance.now(), WARMUP_MS);
  const durations: number[] = [];
  const cpuDurations: number[] = [];
  const ids: string[][] = [];
  for (const query of queries) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    ids.push(await searcher.search(query, k));
    durations.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuDurations.push((used.user + used.system) / 1000);
  }
  const peakRss = peakRssMB();
  // Checked after the timings: each question once, unfiltered and filtered (the first two rounds).
  const verified = searcher.verify === undefined ? undefined : queries.slice(0, 2 * new Set(queries.map((query) => query.query)).size).filter((query) => searcher.verify!(query, k)).length;
  searcher.close();
  return { engine, durations, cpuDurations, ids, peakRssMB: peakRss, openMs, ...(verified === undefined ? {} : { verified: { same: verified, of: Math.min(queries.length, 2 * new Set(queries.map((query) => query.query)).size) } }) };
}

function spawnChild(args: string[]): ScaleChildResult {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`bench:scale: child ${args.join(' ')} failed with status ${child.status}`);
  return JSON.parse(child.stdout) as ScaleChildResult;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'boolean', default: false },
      engine: { type: 'string' },
      db: { type: 'string' },
      reference: { type: 'string' },
      queries: { type: 'string' },
      k: { type: 'string', default: '10' },
      'warmup-queries': { type: 'string' },
      sizes: { type: 'string', default: '10000,100000,1000000' },
      rounds: { type: 'string', default: '6' },
      engines: { type: 'string', default: SCALE_ENGINES.join(',') },
      cache: { type: 'string', default: join(tmpdir(), 'atlas-scale') },
      json: { type: 'boolean', default: false },
    },
  });
  if (values.child) {
    const result = await runChild(values.engine as ScaleEngine, values.db!, values.reference!, values.queries!, Number(values.k), values['warmup-queries']!);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  let engines = values.engines.split(',').filter((name): name is ScaleEngine => (SCALE_ENGINES as readonly string[]).includes(name));
  const lucene = engines.includes('lucene') ? luceneClasspath(process.env) : undefined;
  if (lucene !== undefined && 'missing' in lucene) {
    progress(`bench:scale: lucene left out: ${lucene.missing}`);
    engines = engines.filter((engine) => engine !== 'lucene');
  }
  const classpath = lucene !== undefined && 'classpath' in lucene ? lucene.classpath : undefined;
  const folder = musiqueFolder(process.env);
  const passages = readPassages(folder);
  const queries = benchQueries(readQuestions(folder), Number(values.rounds));
  const queriesPath = join(values.cache, 'queries.json');
  const warmupPath = join(values.cache, 'warmup-queries.json');
  mkdirSync(values.cache, { recursive: true });
  const warmup = benchQueries(warmupQuestions(process.env), 2);
  writeFileSync(warmupPath, JSON.stringify(warmup));
  const sizes: ScaleSizeResult[] = [];
  for (const size of values.sizes.split(',').map(Number)) {
    const built = await cachedScaleDb({ cache: values.cache, size, passages, log: progress });
    const referencePath = cachedReferenceDb({ atlasPath: built.path, cache: values.cache, size, log: progress });
    writeFileSync(queriesPath, JSON.stringify(queries));
    const db = new Database(built.path, { readonly: true });
    const chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    db.close();
    progress(`bench:scale: ${chunks} chunks, ${queries.length} queries`);
    const luceneFolder = classpath === undefined ? undefined : await cachedLuceneIndex({ atlasPath: built.path, cache: values.cache, size, classpath, log: progress });
    const results = engines.map((engine): ScaleChildResult =>
      engine === 'lucene'
        ? runLucene({ folder: luceneFolder!, queries, warmup, k: Number(values.k), classpath: classpath!, cache: values.cache })
        : spawnChild(['--engine', engine, '--db', built.path, '--reference', referencePath, '--queries', queriesPath, '--k', values.k, '--warmup-queries', warmupPath]),
    );
    const reference = results.find((result) => result.engine === 'fts5');
    const atlas = results.find((result) => result.engine === 'atlas');
    sizes.push({
      size,
      chunks,
      diskMB: megabytes(statSync(built.path).size),
      ...(built.buildMs === undefined ? {} : { buildSeconds: round(built.buildMs / 1000, 1) }),
      queries: queries.length,
      engines: results.map((result) => ({
        engine: result.engine,
        search: { ...summarize(result.durations), cpu: summarize(result.cpuDurations) },
        peakRssMB: result.peakRssMB,
        openMs: round(result.openMs, 1),
        overlapWithFts5: reference === undefined ? 1 : meanOverlap(result.ids, reference.ids),
        overlapWithAtlas: atlas === undefined ? 1 : meanOverlap(result.ids, atlas.ids),
        ...(result.verified === undefined ? {} : { verified: result.verified }),
      })),
    });
    progress(formatScale(sizes.slice(-1)));
  }
  process.stdout.write(values.json ? `${JSON.stringify({ node: process.version, sizes })}\n` : `${formatScale(sizes)}\n`);
}

await main();
