/**
 * The `atlas-parse` child of `npm run bench` (started through bench/engine-child.ts): Atlas's
 * ingest from the pages' markdown, parsing included, and the parsed docs written for the other
 * engines.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseDocument, type DocumentSource, type ParseDocumentResult } from '../src/corpus/parse-document.ts';
import { parsePages, parsePagesStream } from '../src/corpus/workers/parse-pages.ts';
import type { Doc } from '../src/corpus/types.ts';
import { ingestItems, ingestPageWorker } from '../src/index/sqlite/ingest-items.ts';
import type { IngestItem } from '../src/index/sqlite/ingest-session.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { TokenizerOptions } from '../src/index/analysis/tokenize.ts';
import type { ChildResult } from './engine-child.ts';
import { cpuMs, mainThreadCpuMs, megabytes, peakRssMB } from './measure.ts';
import type { BenchPage } from './musique-corpus.ts';
import { shippedModule } from './startup.ts';

const now = () => performance.now();

/**
 * `stream` (what `atlas ingest` does): the pages parsed by `parsePagesStream` (in a worker per
 * other core while this thread writes) and written batch by batch by `ingestStream`, timed from
 * the first page handed out to the commit. `sequential`: every page parsed here first (timed as
 * parse), then one `ingest` (timed as ingest), as before the streaming ingest.
 */
export async function parseAndIngest(pagesPath: string, dbPath: string, writeDocs: string | undefined, mode: string): Promise<ChildResult> {
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
    // The pages as bytes, as atlas ingest holds the files it read (and lets go of each once parsed).
    const sources = await readSources(pagesPath);
    const cpu = process.cpuUsage();
    const mainCpu = mainThreadCpuMs();
    const start = now();
    chunks = (await index.ingestStream(parsedBatches(sources, index.tokenizer, shipped))).chunks;
    ingestMs = now() - start;
    ingestCpuMs = cpuMs(process.cpuUsage(cpu));
    if (mainCpu !== undefined) mainCpuMs = mainThreadCpuMs()! - mainCpu;
    peakRss = peakRssMB();
    // The docs for the other engines, parsed again after the measurement (the ingest kept none).
    if (writeDocs !== undefined) for (const result of await parsePages(await readSources(pagesPath), { threads: 1 })) docs.push(parsedDoc(result, ''));
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
  for await (const { results, extras } of atlas.parsePagesStream(sources, { worker: atlas.ingestPageWorker(tokenizer), releaseParsed: true })) {
    yield atlas.ingestItems({ docs: results.map((result) => parsedDoc(result, '')), ...(extras ? { extras } : {}) }, tokenizer);
  }
}

/** The pages of a bench pages file (JSON lines) as sources, read one line at a time. */
async function readSources(pagesPath: string): Promise<DocumentSource[]> {
  const sources: DocumentSource[] = [];
  for await (const line of createInterface({ input: createReadStream(pagesPath), crlfDelay: Infinity })) {
    if (line === '') continue;
    const page = JSON.parse(line) as BenchPage;
    sources.push({ path: page.path, bytes: Buffer.from(page.markdown) });
  }
  return sources;
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
    shippedModule<typeof import('../src/index/sqlite/sqlite.ts')>('index/sqlite/sqlite.ts'),
    shippedModule<typeof import('../src/corpus/workers/parse-pages.ts')>('corpus/workers/parse-pages.ts'),
    shippedModule<typeof import('../src/index/sqlite/ingest-items.ts')>('index/sqlite/ingest-items.ts'),
  ]);
  return { createSqliteIndex: sqlite.createSqliteIndex, parsePagesStream: pages.parsePagesStream, ingestItems: items.ingestItems, ingestPageWorker: items.ingestPageWorker };
}

function parsedDoc(result: ParseDocumentResult, path: string): Doc {
  if (!result.ok) throw new Error(`bench page ${path || result.problems[0]?.file} did not parse: ${JSON.stringify(result.problems)}`);
  return result.doc;
}
