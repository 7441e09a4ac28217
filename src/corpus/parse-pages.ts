import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { resolveChunkingOptions, type ChunkingOptions, type ResolvedChunkingOptions } from './chunking-options.ts';
import { fromWire, type WireResult } from './doc-wire.ts';
import { parseDocument, type DocumentSource, type ParseDocumentResult } from './parse-document.ts';
import type { ParseBatch } from './parse-worker.ts';

/** Fewest pages worth starting worker threads for: below this, starting them costs more than it saves. */
export const MIN_PAGES_FOR_WORKERS = 200;

/** Options of {@link parsePages}. */
export interface ParsePagesOptions {
  chunking?: ChunkingOptions;
  /**
   * Threads to parse on: 1 parses in this thread; more start that many worker threads. Default:
   * see {@link defaultParseThreads}.
   */
  threads?: number;
  /** Cores of the machine, for the default of `threads` (default `os.availableParallelism()`). */
  cores?: number;
  /** Told of a worker thread that failed; its pages were parsed in this thread instead. */
  onWorkerError?: (error: Error) => void;
}

/**
 * Parses pages with {@link parseDocument}, in worker threads when there are enough of them. The
 * results are in the order of `sources` and identical to parsing each page in this thread. A
 * worker that fails (it cannot start, or dies) loses nothing: its pages are parsed in this
 * thread. Throws an `AtlasError` only for invalid chunking options.
 *
 * @example
 * const results = await parsePages([{ path: 'a.md', bytes }], { threads: 1 });
 * results[0]!.ok; // true
 */
export async function parsePages(sources: DocumentSource[], options: ParsePagesOptions = {}): Promise<ParseDocumentResult[]> {
  const resolved = resolveChunkingOptions(options.chunking ?? {});
  const threads = Math.min(options.threads ?? defaultParseThreads(sources.length, options.cores ?? availableParallelism()), sources.length);
  if (threads <= 1) return sources.map((source) => parseDocument(source, resolved));
  return parseInWorkers(sources, resolved, threads, options.onWorkerError);
}

/**
 * How many threads {@link parsePages} uses by default: for at least {@link MIN_PAGES_FOR_WORKERS}
 * pages on a machine with 3 cores or more, a worker per core but one (at most 8), which leaves
 * this thread a core to unpack their results; else 1 (this thread). On 2 cores, 2 workers were
 * slower than this thread alone (bench/parse-growth.ts: starting a worker and loading the
 * parser in it takes about 0.5 s, and this thread unpacks the results meanwhile).
 *
 * @example
 * defaultParseThreads(1000, 4); // 3
 * defaultParseThreads(1000, 2); // 1
 * defaultParseThreads(50, 8); // 1
 */
export function defaultParseThreads(pages: number, cores: number): number {
  return pages >= MIN_PAGES_FOR_WORKERS && cores > 2 ? Math.min(cores - 1, 8) : 1;
}

/**
 * Hands batches of pages to `threads` workers, the next batch to whichever is free, and puts
 * each batch's results at its place.
 */
function parseInWorkers(
  sources: DocumentSource[],
  options: ResolvedChunkingOptions,
  threads: number,
  onWorkerError: ((error: Error) => void) | undefined,
): Promise<ParseDocumentResult[]> {
  const batchSize = Math.max(1, Math.min(256, Math.ceil(sources.length / (threads * 8))));
  const batches: ParseBatch[] = [];
  for (let start = 0; start < sources.length; start += batchSize) {
    batches.push({ id: start, sources: sources.slice(start, start + batchSize).map(({ path, bytes }) => ({ path, bytes })) });
  }
  const results: ParseDocumentResult[] = new Array(sources.length);
  const parseHere = (batch: ParseBatch) => {
    batch.sources.forEach((_, index) => (results[batch.id + index] = parseDocument(sources[batch.id + index]!, options)));
  };
  const createWorker = workerFactory();
  return new Promise((resolve) => {
    let next = 0;
    let running = 0;
    const finishIfDone = () => {
      if (running > 0) return;
      while (next < batches.length) parseHere(batches[next++]!);
      resolve(results);
    };
    const start = () => {
      const worker = createWorker({ options });
      let current: ParseBatch | undefined;
      const sendNext = () => {
        current = batches[next++];
        if (current) worker.postMessage(current);
        else void worker.terminate();
      };
      running++;
      worker.on('message', (reply: { id: number; results: WireResult[] }) => {
        reply.results.forEach((result, index) => (results[reply.id + index] = fromWire(result)));
        sendNext();
      });
      worker.on('error', (error) => {
        onWorkerError?.(error);
        if (current) parseHere(current);
        current = undefined;
      });
      worker.on('exit', () => {
        if (current) parseHere(current);
        current = undefined;
        running--;
        finishIfDone();
      });
      sendNext();
    };
    for (let count = 0; count < threads; count++) start();
  });
}

/**
 * Starts a worker on the module beside this one with this module's extension: `parse-worker.js`
 * when compiled; `parse-worker.ts` when running from the sources, with tsx's loader registered
 * in the worker first (as `bin/atlas.js` does; `--import` in a worker's execArgv does not reach
 * its module loader on Node 20).
 */
function workerFactory(): (workerData: unknown) => Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./parse-worker${extension}`, import.meta.url);
  if (extension !== '.ts') return (workerData) => new Worker(url, { workerData });
  // tsx 4's ESM register API (`tsx/esm/api`, import condition); resolved by path, as require() would pick its CommonJS build.
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return (workerData) => new Worker(bootstrap, { eval: true, workerData });
}
