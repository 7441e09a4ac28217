/**
 * One engine of `npm run bench` in a process of its own, so its peak RSS is its own:
 * `node --import tsx bench/engine-child.ts --engine fts5 --docs docs.json --queries queries.json --db x.db`
 *
 * `--engine atlas-parse --pages pages.json --write-docs docs.json` parses the pages with the corpus
 * layer, ingests them into Atlas, and writes the parsed docs for the other engines (after its
 * measurements). `--phase` splits an engine's run over processes (see {@link Phase}). Prints one
 * JSON object ({@link ChildResult}, the fields of the phase run) on stdout.
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseDocument, type DocumentSource, type ParseDocumentResult } from '../src/corpus/parse-document.ts';
import { parsePages, parsePagesStream } from '../src/corpus/parse-pages.ts';
import type { Doc } from '../src/corpus/types.ts';
import { ingestItems, ingestPageWorker } from '../src/index/ingest-items.ts';
import type { IngestItem } from '../src/index/ingest-session.ts';
import { createSqliteIndex } from '../src/index/sqlite.ts';
import type { TokenizerOptions } from '../src/index/tokenize.ts';
import { createEngine, ENGINE_NAMES, type BenchEngine, type EngineName } from './engines.ts';
import { mainThreadCpuMs, warmUp, WARMUP_MS } from './measure.ts';
import { shippedModule } from './startup.ts';
import type { BenchPage } from './musique-corpus.ts';

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
  /** Engines searched in a process of their own (phase search): that process's peak RSS. */
  searchPeakRssMB?: number;
}

const now = () => performance.now();
const megabytes = (bytes: number) => Math.round(bytes / 1e5) / 10;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const peakRssMB = () => megabytes(process.resourceUsage().maxRSS * 1024);

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
    return { engine, ...result, searchPeakRssMB: peakRssMB() };
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
    const found = await searchEngine.search(query.query, { k, filter: query.version === null ? undefined : { version: query.version } });
    if (n >= 0) ids[n] = found;
  });
  return { durations, cpuDurations, ids };
}

/** Atlas's search with every hit's snippet read. */
async function timeSnippets(path: string, queries: BenchQuery[], warmup: BenchQuery[], k: number): Promise<number[]> {
  const index = createSqliteIndex({ path, readonly: true });
  const { durations } = await timeQueries(queries, warmup, async (query) => {
    const hits = await index.search(query.query, { k, filter: query.version === null ? undefined : { version: query.version } });
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

/**
 * `stream` (what `atlas ingest` does): the pages parsed by `parsePagesStream` (in a worker per
 * other core while this thread writes) and written batch by batch by `ingestStream`, timed from
 * the first page handed out to the commit. `sequential`: every page parsed here first (timed as
 * parse), then one `ingest` (timed as ingest), as before the streaming ingest.
 */
async function parseAndIngest(pagesPath: string, dbPath: string, writeDocs: string | undefined, mode: string): Promise<ChildResult> {
  const inputRssMB = megabytes(process.memoryUsage().rss);
  // The streamed ingest runs the compiled JavaScript atlas ingest runs (its parse worker too).
  const shipped = mode === 'stream' ? await shippedIngest() : { createSqliteIndex, parsePagesStream, ingestItems, ingestPageWorker };
  const index = shipped.createSqliteIndex({ path: dbPath, rebuild: true });
  const docs: Doc[] = [];
  let parseMs: number | undefined;
  let ingestMs: number;
  let ingestCpuMs: number;
  let chunks: number;
  let peakRss: number;
  let mainCpuMs: number | undefined;
  if (mode === 'stream') {
    // The pages as bytes, read one line at a time, as atlas ingest holds the files it read.
    const sources: DocumentSource[] = [];
    for await (const line of createInterface({ input: createReadStream(pagesPath), crlfDelay: Infinity })) {
      if (line === '') continue;
      const page = JSON.parse(line) as BenchPage;
      sources.push({ path: page.path, bytes: Buffer.from(page.markdown) });
    }
    const cpu = process.cpuUsage();
    const mainCpu = mainThreadCpuMs();
    const start = now();
    chunks = (await index.ingestStream(parsedBatches(sources, index.tokenizer, shipped))).chunks;
    ingestMs = now() - start;
    ingestCpuMs = cpuMs(process.cpuUsage(cpu));
    if (mainCpu !== undefined) mainCpuMs = mainThreadCpuMs()! - mainCpu;
    peakRss = peakRssMB();
    // The docs for the other engines, parsed again after the measurement (the ingest kept none).
    if (writeDocs !== undefined) for (const result of await parsePages(sources, { threads: 1 })) docs.push(parsedDoc(result, ''));
  } else {
    // Pages are read one line at a time and parsed as they come: the markdown is never all in memory.
    parseMs = 0;
    for await (const line of createInterface({ input: createReadStream(pagesPath), crlfDelay: Infinity })) {
      if (line === '') continue;
      const page = JSON.parse(line) as BenchPage;
      const started = now();
      docs.push(parsedDoc(parseDocument({ path: page.path, bytes: Buffer.from(page.markdown) }), page.path));
      parseMs += now() - started;
    }
    const cpu = process.cpuUsage();
    const mainCpu = mainThreadCpuMs();
    const start = now();
    chunks = (await index.ingest(docs)).chunks;
    ingestMs = now() - start;
    ingestCpuMs = cpuMs(process.cpuUsage(cpu));
    if (mainCpu !== undefined) mainCpuMs = mainThreadCpuMs()! - mainCpu;
    peakRss = peakRssMB();
  }
  await index.close();
  const result: ChildResult = {
    engine: 'atlas-parse',
    chunks,
    inputRssMB,
    peakRssMB: peakRss,
    ...(parseMs === undefined ? {} : { parseMs }),
    ...(mainCpuMs === undefined ? {} : { mainThreadCpuMs: mainCpuMs }),
    ingestMs,
    ingestCpuMs,
    durations: [],
    cpuDurations: [],
    ids: [],
  };
  if (writeDocs !== undefined) writeFileSync(writeDocs, docs.map((doc) => JSON.stringify(doc)).join('\n'));
  return result;
}

/**
 * The parsed docs of `sources` batch by batch as `parsePagesStream` yields them, parsed by the
 * ingest's workers (which also derive what the index computes per chunk), as atlas ingest does.
 */
async function* parsedBatches(sources: DocumentSource[], tokenizer: TokenizerOptions, atlas: IngestModules): AsyncGenerator<IngestItem[]> {
  for await (const { results, extras } of atlas.parsePagesStream(sources, { worker: atlas.ingestPageWorker(tokenizer) })) {
    yield atlas.ingestItems({ docs: results.map((result) => parsedDoc(result, '')), ...(extras ? { extras } : {}) }, tokenizer);
  }
}

/** What the streamed ingest calls, from the sources (tsx) or from dist/. */
interface IngestModules {
  createSqliteIndex: typeof createSqliteIndex;
  parsePagesStream: typeof parsePagesStream;
  ingestItems: typeof ingestItems;
  ingestPageWorker: typeof ingestPageWorker;
}

/** {@link IngestModules} from dist/ (built first if stale: bench/startup.ts). */
async function shippedIngest(): Promise<IngestModules> {
  const [sqlite, pages, items] = await Promise.all([
    shippedModule<typeof import('../src/index/sqlite.ts')>('index/sqlite.ts'),
    shippedModule<typeof import('../src/corpus/parse-pages.ts')>('corpus/parse-pages.ts'),
    shippedModule<typeof import('../src/index/ingest-items.ts')>('index/ingest-items.ts'),
  ]);
  return { createSqliteIndex: sqlite.createSqliteIndex, parsePagesStream: pages.parsePagesStream, ingestItems: items.ingestItems, ingestPageWorker: items.ingestPageWorker };
}

function parsedDoc(result: ParseDocumentResult, path: string): Doc {
  if (!result.ok) throw new Error(`bench page ${path || result.problems[0]?.file} did not parse: ${JSON.stringify(result.problems)}`);
  return result.doc;
}

/** The values of a JSON Lines file, read one line at a time (no whole-file string in memory). */
async function readJsonLines<T>(path: string): Promise<T[]> {
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
