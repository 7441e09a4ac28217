import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AtlasError } from '../../errors.ts';
import { resolveChunkingOptions, type ChunkingOptions, type ResolvedChunkingOptions } from '../chunking/chunking-options.ts';
import { fromWire, type WireResult } from './doc-wire.ts';
import { parseDocument, type DocumentSource, type ParseDocumentResult } from '../parse-document.ts';
import type { ParseBatch, ParseBatchReply } from './parse-serve.ts';

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
   * Bytes per batch handed to a worker thread, at most (default 1 MB; a batch has one page at
   * least): a batch of large pages (HTML of 100 KB each) is then fewer pages, so the threads
   * share the work in finer parts and none waits long for another at the end.
   */
  batchBytes?: number;
  /**
   * Whether this thread parses batches too while the workers run (default true). `false` leaves
   * every page to the workers (this thread still parses those of a worker that fails): for tests
   * that compare the workers' output with this thread's.
   */
  thisThreadParses?: boolean;
}

/**
 * A module to run in the worker threads instead of the plain parser: it must answer like
 * `parse-worker.ts` (see `serveParseBatches`), and may add one extra value per parsed page
 * (e.g. what the index derives from its chunks), which {@link ParsedBatch.extras} carries.
 */
export interface PageWorker {
  url: URL;
  /** Passed to the worker beside the chunking options (`workerData.data`). */
  data?: unknown;
  /**
   * Whether the thread reading the batches parses pages too while the next batch is not ready
   * (`thisThreadParses`; default true). A worker whose reader has other work for its thread says
   * false (see `ingestPageWorker`); `thisThreadParses` in the options wins over it.
   */
  thisThreadParses?: boolean;
}

/** Options of {@link parsePagesStream}. */
export interface ParsePagesStreamOptions extends ParsePagesOptions {
  /** Default: the plain parser (`parse-worker.ts`). */
  worker?: PageWorker;
  /**
   * Whether the stream lets go of each page's bytes once its batch is yielded, replacing the
   * source in `sources` by its path and no bytes: a caller that holds every page it read (as
   * `atlas ingest` does) then holds at the end only the pages not parsed yet. Default false.
   */
  releaseParsed?: boolean;
}

const NO_BYTES = Buffer.alloc(0);

/** Replaces sources `from` to `to` (exclusive) by their paths and no bytes. */
function release(sources: DocumentSource[], from: number, to: number): void {
  for (let at = from; at < to; at += 1) sources[at] = { path: sources[at]!.path, bytes: NO_BYTES };
  // (A converted page's markdown and its sidecar go too: only the path is kept.)
}

/** Consecutive results of {@link parsePagesStream}, in the order of the sources. */
export interface ParsedBatch {
  results: ParseDocumentResult[];
  /** The extra value of each page, when a {@link PageWorker} parsed the batch and made them; absent when this thread parsed it. */
  extras?: unknown[];
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
  const threads = checkedThreads(options) ?? defaultParseThreads(sources.length, options.cores ?? availableParallelism());
  const results: ParseDocumentResult[] = [];
  for await (const batch of parsePagesStream(sources, { ...options, threads })) results.push(...batch.results);
  return results;
}

/**
 * {@link parsePages} as batches, yielded in the order of `sources` as soon as each is parsed,
 * so the caller can use one (write it to an index) while the workers parse the next. This thread
 * parses a batch itself only while the next one in order is not ready (so a caller busy with
 * each batch leaves the parsing to the workers). By default it starts a worker per other core for
 * {@link MIN_PAGES_FOR_WORKERS} pages or more (see {@link defaultStreamThreads}). Stopping early
 * (`break`, or a thrown error in the loop) stops the workers.
 *
 * @example
 * for await (const { results } of parsePagesStream(sources)) for (const result of results) if (result.ok) write(result.doc);
 */
export async function* parsePagesStream(sources: DocumentSource[], options: ParsePagesStreamOptions = {}): AsyncGenerator<ParsedBatch> {
  const resolved = resolveChunkingOptions(options.chunking ?? {});
  const threads = Math.min(checkedThreads(options) ?? defaultStreamThreads(sources.length, options.cores ?? availableParallelism()), sources.length);
  const batchPages = options.batchPages ?? DEFAULT_BATCH_PAGES;
  if (threads <= 1) {
    for (let start = 0; start < sources.length; start += batchPages) {
      yield { results: sources.slice(start, start + batchPages).map((source) => parseDocument(source, resolved)) };
      if (options.releaseParsed) release(sources, start, Math.min(start + batchPages, sources.length));
    }
    return;
  }
  yield* parseInWorkers(sources, resolved, threads, { ...options, batchPages, batchBytes: options.batchBytes ?? DEFAULT_BATCH_BYTES });
}

/** `options.threads` when given (checked), else undefined. */
function checkedThreads(options: ParsePagesOptions): number | undefined {
  resolveChunkingOptions(options.chunking ?? {});
  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads >= 1)) {
    throw new AtlasError('usage', `Atlas: threads must be a whole number of at least 1, got ${JSON.stringify(options.threads)}. Pass e.g. { threads: 4 }, or leave it out for one per core.`);
  }
  return options.threads;
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

/**
 * How many threads {@link parsePagesStream} uses by default: one per core, 8 at most, for at
 * least {@link MIN_PAGES_FOR_WORKERS} pages on 2 cores or more, else 1. Unlike
 * {@link defaultParseThreads} a worker pays on 2 cores too, because the caller has work of its
 * own for this thread (the SQLite inserts of an ingest).
 *
 * @example
 * defaultStreamThreads(1000, 2); // 2
 * defaultStreamThreads(1000, 1); // 1
 * defaultStreamThreads(50, 8); // 1
 */
export function defaultStreamThreads(pages: number, cores: number): number {
  return pages >= MIN_PAGES_FOR_WORKERS && cores >= 2 ? Math.min(cores, 8) : 1;
}

/** Pages per batch handed out: small enough to balance the end, large enough to keep messages few. */
const DEFAULT_BATCH_PAGES = 64;
/** Bytes per batch handed to a worker at most: 10 pages of a Sphinx site, about 70 ms of parsing (64 markdown pages of a few KB are far below). */
const DEFAULT_BATCH_BYTES = 1024 * 1024;

/** Batches a worker holds at once, so it never waits for this thread to send the next one. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Parses batches of pages in `threads - 1` workers (and in this thread while the next batch in
 * order is not ready), yielding them in order. A worker gets {@link BATCHES_IN_FLIGHT} batches
 * when it is started (queued until its parser is loaded) and one more each time it posts a
 * batch's results; the batches of a worker that fails are parsed here.
 */
async function* parseInWorkers(
  sources: DocumentSource[],
  options: ResolvedChunkingOptions,
  threads: number,
  { onWorkerError, batchPages, batchBytes, thisThreadParses: parsesHere, worker: pageWorker, releaseParsed = false }: ParsePagesStreamOptions & { batchPages: number; batchBytes: number },
): AsyncGenerator<ParsedBatch> {
  const thisThreadParses = parsesHere ?? pageWorker?.thisThreadParses ?? true;
  const done = new Map<number, ParsedBatch>();
  const orphans: ParseBatch[] = [];
  let next = 0;
  let live = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  // Pages handed out but not yet yielded stay within this window, so a slow caller does not let
  // parsed batches pile up in memory: the workers wait (hungry) until the caller takes one.
  const window = Math.max(1, threads - 1) * (BATCHES_IN_FLIGHT + 1) * batchPages;
  let yielded = 0;
  const hungry: Array<() => void> = [];
  const takeBatch = (): ParseBatch | undefined => {
    if (next >= sources.length) return undefined;
    let end = next + 1;
    for (let bytes = sources[next]!.bytes.length; end < Math.min(next + batchPages, sources.length); end += 1) {
      bytes += sources[end]!.bytes.length;
      if (bytes > batchBytes) break;
    }
    const batch = { id: next, sources: sources.slice(next, end).map(({ path, bytes, converted, sidecar, folder }) => ({ path, bytes, ...(converted ? { converted } : {}), ...(sidecar ? { sidecar } : {}), ...(folder ? { folder } : {}) })) };
    next += batch.sources.length;
    return batch;
  };
  const parseHere = (batch: ParseBatch) => {
    done.set(batch.id, { results: batch.sources.map((_, index) => parseDocument(sources[batch.id + index]!, options)) });
  };
  const createWorker = workerFactory(pageWorker?.url ?? new URL(`./parse-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
  const workers: Worker[] = [];
  for (let count = 1; count < threads; count++) {
    const worker = createWorker({ options, data: pageWorker?.data });
    workers.push(worker);
    live += 1;
    const inFlight: ParseBatch[] = [];
    const send = () => {
      if (next - yielded >= window) {
        hungry.push(send);
        return;
      }
      const batch = takeBatch();
      if (batch) {
        inFlight.push(batch);
        worker.postMessage(batch);
      }
    };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      live -= 1;
      for (let at = hungry.indexOf(send); at !== -1; at = hungry.indexOf(send)) hungry.splice(at, 1);
      orphans.push(...inFlight.splice(0));
      notify();
    };
    worker.on('message', (reply: 'ready' | ParseBatchReply) => {
      if (reply === 'ready') return;
      inFlight.shift();
      done.set(reply.id, { results: reply.results.map((result: WireResult) => fromWire(result)), ...(reply.extras ? { extras: reply.extras } : {}) });
      notify();
      send();
    });
    worker.on('error', (error) => {
      onWorkerError?.(error);
      end();
    });
    worker.on('exit', end);
    // Its first batches wait in its queue while it starts: this thread may be parsing a batch of
    // its own when the worker is ready, and would hear of it only after (a worker idle 0.9 s).
    for (let count = 0; count < BATCHES_IN_FLIGHT; count++) send();
  }
  try {
    while (yielded < sources.length) {
      const ready = done.get(yielded);
      if (ready !== undefined) {
        done.delete(yielded);
        yielded += ready.results.length;
        yield ready;
        if (releaseParsed) release(sources, yielded - ready.results.length, yielded);
        for (const send of hungry.splice(0)) send();
        // Let the workers' messages in (their results, and their requests for more) between batches.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const batch = orphans.shift() ?? ((thisThreadParses && next - yielded < window) || live === 0 ? takeBatch() : undefined);
      if (batch !== undefined) {
        parseHere(batch);
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Starts workers on `url`: a compiled `.js` module as it is; a `.ts` source with tsx's loader
 * registered in the worker first (as `bin/atlas.js` does; `--import` in a worker's execArgv
 * does not reach its module loader on Node 20).
 */
function workerFactory(url: URL): (workerData: unknown) => Worker {
  if (extname(fileURLToPath(url)) !== '.ts') return (workerData) => new Worker(url, { workerData });
  // tsx 4's ESM register API (`tsx/esm/api`, import condition); resolved by path, as require() would pick its CommonJS build.
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return (workerData) => new Worker(bootstrap, { eval: true, workerData });
}
