/**
 * One engine of `npm run bench` in a process of its own, so its peak RSS is its own:
 * `node --import tsx bench/engine-child.ts --engine fts5 --docs docs.json --queries queries.json --db x.db`
 *
 * `--engine atlas-parse --pages pages.json --write-docs docs.json` parses the pages with the corpus
 * layer, ingests them into Atlas, and writes the parsed docs for the other engines (after its
 * measurements: bench/parse-child.ts). `--phase` splits an engine's run over processes (see {@link Phase}). Prints one
 * JSON object ({@link ChildResult}, the fields of the phase run) on stdout.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Doc } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createEngine, ENGINE_NAMES, type BenchEngine, type EngineName } from './engines.ts';
import { cpuMs, megabytes, peakRssMB, warmUp, WARMUP_MS } from './measure.ts';
import { queryFilter } from './musique-corpus.ts';
import { parseAndIngest } from './parse-child.ts';

/** One query of the bench and its version filter (null: unfiltered). */
export interface BenchQuery {
  query: string;
  version: string | null;
}

/** What a child reports. Times in ms, memory in MB. */
export interface ChildResult {
  engine: string;
  chunks: number;
  /** RSS once the input is loaded, before the engine does anything. */
  inputRssMB: number;
  /** Peak RSS of the process over ingest and, for an engine searched in the same process, search (getrusage maxrss). */
  peakRssMB: number;
  parseMs?: number;
  ingestMs: number;
  /** CPU time (user + system) of the ingest, every thread of the process. */
  ingestCpuMs: number;
  /** atlas-parse on Linux: the CPU time of the main thread alone (the one writing SQLite). */
  mainThreadCpuMs?: number;
  /** Per query, in order (after warm-up). */
  durations: number[];
  /** Per query, the CPU time of the process (user + system): what the query cost without the waits of a shared machine. */
  cpuDurations: number[];
  /** Per query, the top-k chunk ids. */
  ids: string[][];
  /** Atlas only: the same queries with every hit's snippet read. */
  snippetDurations?: number[];
  reingestUnchangedMs?: number;
  reingestOnePercentChangedMs?: number;
}

const now = () => performance.now();

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string' },
      docs: { type: 'string' },
      pages: { type: 'string' },
      'write-docs': { type: 'string' },
      queries: { type: 'string' },
      db: { type: 'string', default: ':memory:' },
      k: { type: 'string', default: '10' },
      // Untimed queries first (JSON like --queries); none: the first 20 timed queries, untimed once more.
      'warmup-queries': { type: 'string' },
      'parse-mode': { type: 'string', default: 'stream' },
      phase: { type: 'string', default: 'all' },
    },
  });
  const engine = values.engine ?? '';
  const result = engine === 'atlas-parse' ? await parseAndIngest(values.pages!, values.db, values['write-docs'], values['parse-mode']) : await runEngine(engine, values.phase, values);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * What one child does with an engine (`--phase`): `all`, ingest then search in this process (the
 * in-memory engines: their index lives here); for the engines whose index is a file (atlas,
 * fts5), `ingest` alone, then `search` in another process that opens the file (as `atlas serve`
 * or `atlas search` would: a process that just ingested 100k chunks has a young generation grown
 * to 16 MB, and with its small old generation V8 kept starting full collections among the timed
 * queries), then for atlas `reingest` (unchanged, then 1% of the pages changed).
 */
type Phase = 'all' | 'ingest' | 'search' | 'reingest';
const PHASES: readonly Phase[] = ['all', 'ingest', 'search', 'reingest'];

async function runEngine(
  engine: string,
  phase: string,
  values: { docs?: string; queries?: string; db: string; k: string; 'warmup-queries'?: string },
): Promise<Partial<ChildResult>> {
  if (!(ENGINE_NAMES as readonly string[]).includes(engine)) {
    throw new Error(`bench child: unknown engine ${JSON.stringify(engine)}; the engines are atlas-parse, ${ENGINE_NAMES.join(', ')}`);
  }
  if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`bench child: unknown phase ${JSON.stringify(phase)}; the phases are ${PHASES.join(', ')}`);
  const k = Number(values.k);
  const queries = JSON.parse(readFileSync(values.queries!, 'utf8')) as BenchQuery[];
  const warmup = values['warmup-queries'] === undefined ? queries.slice(0, 20) : (JSON.parse(readFileSync(values['warmup-queries'], 'utf8')) as BenchQuery[]);
  if (phase === 'search') {
    const searchEngine = createEngine(engine as EngineName, values.db, { existing: true });
    const result = await timeSearches(searchEngine, queries, warmup, k);
    await searchEngine.close();
    if (engine === 'atlas') result.snippetDurations = await timeSnippets(values.db, queries, warmup, k);
    return { engine, ...result };
  }
  if (phase === 'reingest') return { engine, ...(await reingest(values.db, await readJsonLines<Doc>(values.docs!))) };
  let docs: Doc[] | undefined = await readJsonLines<Doc>(values.docs!);
  const inputRssMB = megabytes(process.memoryUsage().rss);
  const chunks = docs.reduce((sum, doc) => sum + doc.chunks.length, 0);
  const searchEngine = createEngine(engine as EngineName, values.db);
  const cpu = process.cpuUsage();
  const start = now();
  await searchEngine.ingest(docs);
  const ingestMs = now() - start;
  const ingestCpuMs = cpuMs(process.cpuUsage(cpu));
  // The parsed docs are the bench's, not the engine's (about 140 MB at 100k chunks): an engine keeps what it needs.
  docs = undefined;
  const searched = phase === 'all' ? await timeSearches(searchEngine, queries, warmup, k) : {};
  await searchEngine.close();
  return { engine, chunks, inputRssMB, peakRssMB: peakRssMB(), ingestMs, ingestCpuMs, ...searched };
}

/** The timed queries of one engine: durations, CPU durations and the ids each found. */
async function timeSearches(searchEngine: BenchEngine, queries: BenchQuery[], warmup: BenchQuery[], k: number): Promise<Partial<ChildResult>> {
  const ids: string[][] = [];
  const { durations, cpuDurations } = await timeQueries(queries, warmup, async (query, n) => {
    const found = await searchEngine.search(query.query, { k, filter: queryFilter(query) });
    if (n >= 0) ids[n] = found;
  });
  return { durations, cpuDurations, ids };
}

/** Atlas's search with every hit's snippet read. */
async function timeSnippets(path: string, queries: BenchQuery[], warmup: BenchQuery[], k: number): Promise<number[]> {
  const index = createSqliteIndex({ path, readonly: true });
  const { durations } = await timeQueries(queries, warmup, async (query) => {
    const hits = await index.search(query.query, { k, filter: queryFilter(query) });
    for (const hit of hits) void hit.snippet;
  });
  await index.close();
  return durations;
}

/** Atlas's incremental re-ingest of `docs` into the index they were ingested into: unchanged, then 1% changed. */
async function reingest(path: string, docs: Doc[]) {
  const index = createSqliteIndex({ path });
  let start = now();
  await index.ingest(docs);
  const reingestUnchangedMs = now() - start;
  const changed = docs.map((doc, n) => (n % 100 === 0 ? touch(doc) : doc));
  start = now();
  await index.ingest(changed);
  const reingestOnePercentChangedMs = now() - start;
  await index.close();
  return { reingestUnchangedMs, reingestOnePercentChangedMs };
}

/** The values of a JSON Lines file, read one line at a time (no whole-file string in memory). */
export async function readJsonLines<T>(path: string): Promise<T[]> {
  const values: T[] = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line !== '') values.push(JSON.parse(line) as T);
  }
  return values;
}

/**
 * Wall and CPU ms of each query, after a full garbage collection (when the process runs with
 * --expose-gc, as bench/run.ts starts it: the ingest's garbage is not the searches' cost) and
 * the `warmup` queries untimed (their results are dropped).
 */
async function timeQueries(
  queries: BenchQuery[],
  warmup: BenchQuery[],
  work: (query: BenchQuery, n: number) => Promise<void>,
): Promise<{ durations: number[]; cpuDurations: number[] }> {
  (globalThis as { gc?: () => void }).gc?.();
  await warmUp(warmup, (query) => work(query, -1), now, WARMUP_MS);
  const durations: number[] = [];
  const cpuDurations: number[] = [];
  for (let n = 0; n < queries.length; n += 1) {
    const cpu = process.cpuUsage();
    const start = now();
    await work(queries[n]!, n);
    durations.push(now() - start);
    const used = process.cpuUsage(cpu);
    cpuDurations.push((used.user + used.system) / 1000);
  }
  return { durations, cpuDurations };
}

/** The same document with new content in every chunk (a changed hash). */
function touch(doc: Doc): Doc {
  return {
    ...doc,
    contentHash: `${doc.contentHash}-changed`,
    chunks: doc.chunks.map((chunk) => ({ ...chunk, text: `${chunk.text} Changed.` })),
  };
}

await main();
