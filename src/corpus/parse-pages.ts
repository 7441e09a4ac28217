import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AtlasError } from '../errors.ts';
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
   * Threads to parse on: 1 parses in this thread only; n > 1 parses in this thread and n - 1
   * worker threads. Default: see {@link defaultParseThreads}.
   */
  threads?: number;
  /** Cores of the machine, for the default of `threads` (default `os.availableParallelism()`). */
  cores?: number;
  /** Told of a worker thread that failed; its pages were parsed in this thread instead. */
  onWorkerError?: (error: Error) => void;
  /** Pages per batch handed to a thread (default 64). */
  batchPages?: number;
  /**
   * Whether this thread parses batches too while the workers run (default true). `false` leaves
   * every page to the workers (this thread still parses those of a worker that fails): for tests
   * that compare the workers' output with this thread's.
   */
  thisThreadParses?: boolean;
}

/**
 * Parses pages with {@link parseDocument}, in worker threads when there are enough of them. The
 * results are in the order of `sources` and identical to parsing each page in this thread. A
 * worker that fails (it cannot start, or dies) loses nothing: its pages are parsed in this
 * thread. Throws an `AtlasError` only for invalid options.
 *
 * @example
 * const results = await parsePages([{ path: 'a.md', bytes }], { threads: 1 });
 * results[0]!.ok; // true
 */
export async function parsePages(sources: DocumentSource[], options: ParsePagesOptions = {}): Promise<ParseDocumentResult[]> {
  const resolved = resolveChunkingOptions(options.chunking ?? {});
  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads >= 1)) {
    throw new AtlasError('usage', `Atlas: threads must be a whole number of at least 1, got ${JSON.stringify(options.threads)}. Pass e.g. { threads: 4 }, or leave it out for one per core.`);
  }
  const threads = Math.min(options.threads ?? defaultParseThreads(sources.length, options.cores ?? availableParallelism()), sources.length);
  if (threads <= 1) return sources.map((source) => parseDocument(source, resolved));
  return parseInWorkers(sources, resolved, threads, options);
}

/**
 * How many threads {@link parsePages} uses by default: one per core (this one and a worker per
 * other core, 8 in all at most) for at least {@link MIN_PAGES_FOR_WORKERS} pages on a machine
 * with 3 cores or more; else 1 (this thread). On 2 shared cores a worker lost (100k bench
 * chunks, fresh processes: 2252-3173 ms in this thread alone, 3927-4705 ms with one worker): it
 * takes about 0.5 s to start, parses its first few thousand pages about 4 times slower than
 * once its JIT is warm, and the other core was seldom free.
 *
 * @example
 * defaultParseThreads(1000, 4); // 4
 * defaultParseThreads(1000, 2); // 1
 * defaultParseThreads(50, 8); // 1
 */
export function defaultParseThreads(pages: number, cores: number): number {
  return pages >= MIN_PAGES_FOR_WORKERS && cores > 2 ? Math.min(cores, 8) : 1;
}

/** Pages per batch handed out: small enough to balance the end, large enough to keep messages few. */
const DEFAULT_BATCH_PAGES = 64;

/**
 * Parses batches of pages in this thread and in `threads - 1` workers at once: a worker gets
 * two batches when it is ready (its parser loaded) and one more each time it posts a batch's
 * results; this thread takes the next batch between handling their messages. Each batch's results go to its
 * place; the pages of a worker that fails are parsed here.
 */
async function parseInWorkers(
  sources: DocumentSource[],
  options: ResolvedChunkingOptions,
  threads: number,
  { onWorkerError, batchPages = DEFAULT_BATCH_PAGES, thisThreadParses = true }: ParsePagesOptions,
): Promise<ParseDocumentResult[]> {
  const results: ParseDocumentResult[] = new Array(sources.length);
  let next = 0;
  const takeBatch = (): ParseBatch | undefined => {
    if (next >= sources.length) return undefined;
    const batch = { id: next, sources: sources.slice(next, next + batchPages).map(({ path, bytes }) => ({ path, bytes })) };
    next += batch.sources.length;
    return batch;
  };
  const parseHere = (batch: ParseBatch) => {
    batch.sources.forEach((_, index) => (results[batch.id + index] = parseDocument(sources[batch.id + index]!, options)));
  };
  const createWorker = workerFactory();
  const pending = new Set<Promise<void>>();
  const workers: Worker[] = [];
  for (let count = 1; count < threads; count++) {
    const worker = createWorker({ options });
    workers.push(worker);
    // Two batches in flight, so a worker never waits for this thread to send its next one.
    const inFlight: ParseBatch[] = [];
    const send = () => {
      const batch = takeBatch();
      if (batch) {
        inFlight.push(batch);
        worker.postMessage(batch);
      }
    };
    const recover = () => inFlight.splice(0).forEach(parseHere);
    const done = new Promise<void>((resolve) => {
      worker.on('message', (reply: 'ready' | { id: number; results: WireResult[] }) => {
        if (reply === 'ready') {
          send();
        } else {
          inFlight.shift();
          reply.results.forEach((result, index) => (results[reply.id + index] = fromWire(result)));
        }
        send();
        if (inFlight.length === 0) resolve();
      });
      worker.on('error', (error) => {
        onWorkerError?.(error);
        recover();
        resolve();
      });
      worker.on('exit', () => {
        recover();
        resolve();
      });
    });
    pending.add(done);
  }
  for (let batch = thisThreadParses ? takeBatch() : undefined; batch; batch = takeBatch()) {
    parseHere(batch);
    // Let the workers' messages in: their results, and their requests for more.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
  // Whatever no worker took (they all failed) is parsed here.
  for (let batch = takeBatch(); batch; batch = takeBatch()) parseHere(batch);
  await Promise.all(workers.map((worker) => worker.terminate()));
  return results;
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
