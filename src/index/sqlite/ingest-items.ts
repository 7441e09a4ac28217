import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusBatch, PageWorker } from '../../corpus/index.ts';
import type { IngestItem } from './ingest-session.ts';
import type { NewTerms } from '../engine/chunk-terms.ts';
import type { DerivedChunkValues } from './ingest-writer.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';

/** What an ingest worker is started with (`PageWorker.data`). */
export interface IngestWorkerData {
  tokenizer: TokenizerOptions;
  /**
   * Shared by the workers and {@link ingestItems}: chunks of the pages the workers handled
   * ({@link PROGRESS_HANDLED}) and of those the writing thread took ({@link PROGRESS_TAKEN}), as
   * Int32 counters; absent: the workers derive every page.
   */
  progress?: SharedArrayBuffer;
}

/** Index of the counter of chunks the workers handled, in {@link IngestWorkerData.progress}. */
export const PROGRESS_HANDLED = 0;
/** Index of the counter of chunks the writing thread took, in {@link IngestWorkerData.progress}. */
export const PROGRESS_TAKEN = 1;
/**
 * Fewest chunks handled by the workers and not yet taken by the writing thread for a worker to
 * derive a page's values: with fewer, the writer is about to wait for pages, so the worker hands
 * the page over underived (the writer derives it) and gets to the next one sooner. Counted in
 * chunks, the writer's work, not in pages: 600 is the 96 pages of about 6 chunks this was tuned
 * with (the bench's), and 20 pages of a Sphinx site (28 chunks a page), whose workers, counting
 * pages, handed every page over (the writer derived all 530 of the Python docs, the worker none).
 */
export const HANDOVER_BACKLOG = 600;

/**
 * The extra value an ingest worker makes per page: the derived values of its chunks, the
 * settings they were derived with, and the terms the worker's dictionary numbered first for them.
 */
export interface DerivedPage {
  tag: string;
  /** Absent for a page handed over underived (see {@link HANDOVER_BACKLOG}). */
  values?: readonly DerivedChunkValues[];
  terms?: NewTerms;
  /** The workers' {@link IngestWorkerData.progress}, for {@link ingestItems} to count the pages it takes. */
  progress?: SharedArrayBuffer;
}

/** Options of {@link ingestPageWorker}. */
export interface IngestPageWorkerOptions {
  /**
   * Let the workers hand pages over underived while the writing thread would otherwise wait
   * for them (see {@link HANDOVER_BACKLOG}); default true. The rows written are the same either way.
   */
  handOver?: boolean;
}

/**
 * The tokenizer settings derived values depend on, as a string.
 *
 * @example
 * derivedTag({ porter: true, identifiers: true }); // 'identifiers=true'
 */
export function derivedTag(tokenizer: TokenizerOptions): string {
  return `identifiers=${tokenizer.identifiers}`;
}

/**
 * The worker module for `streamCorpus` / `parsePagesStream` that parses pages and also derives
 * what the index computes from their chunks (identifier expansions, definitions, JSON columns),
 * so that the thread writing the index only runs SQLite. Pass the index's own tokenizer
 * (`SqliteIndex.tokenizer`), then turn each batch into ingest items with {@link ingestItems}.
 *
 * @example
 * const corpus = await streamCorpus('./docs', { worker: ingestPageWorker(index.tokenizer) });
 * await index.ingestStream(mapBatches(corpus.batches, (batch) => ingestItems(batch, index.tokenizer)));
 */
export function ingestPageWorker(tokenizer: TokenizerOptions, options: IngestPageWorkerOptions = {}): PageWorker {
  const data: IngestWorkerData = { tokenizer: { ...tokenizer }, ...(options.handOver === false ? {} : { progress: new SharedArrayBuffer(8) }) };
  // The writing thread derives the pages handed over and writes every page, but parses none while
  // a worker runs: when both threads parse and derive, V8 compiles the parsers and the deriving
  // code in each (about a quarter of the CPU of an ingest of the Python docs is V8's background
  // compiling). Their ingest, CPU of all threads, 3 alternating runs: 9.1-9.2 s instead of
  // 9.8-11.3 (V8's background threads 2.1-2.3 s instead of 2.7-3.3); see docs/performance.md.
  return { url: new URL(`./ingest-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url), data, thisThreadParses: false };
}

/**
 * The ingest items of a corpus batch: each document with the values an {@link ingestPageWorker}
 * derived for it, when they were derived with `tokenizer`'s settings and fit its chunks; else the
 * document alone (the index derives them while writing). The rows written are the same either way.
 *
 * @example
 * await index.ingestStream(mapBatches(corpus.batches, (batch) => ingestItems(batch, index.tokenizer)));
 */
export function ingestItems(batch: CorpusBatch, tokenizer: TokenizerOptions): IngestItem[] {
  const tag = derivedTag(tokenizer);
  // Counts the chunks taken from each workers' group, for their hand-over (HANDOVER_BACKLOG).
  const taken = new Map<SharedArrayBuffer, number>();
  batch.extras?.forEach((extra, position) => {
    const progress = (extra as Partial<DerivedPage> | undefined)?.progress;
    if (progress instanceof SharedArrayBuffer) taken.set(progress, (taken.get(progress) ?? 0) + (batch.docs[position]?.chunks.length ?? 0));
  });
  for (const [progress, chunks] of taken) Atomics.add(new Int32Array(progress), PROGRESS_TAKEN, chunks);
  return batch.docs.map((doc, position) => {
    const extra = batch.extras?.[position] as Partial<DerivedPage> | undefined;
    const terms = isNewTerms(extra?.terms) ? extra.terms : undefined;
    if (terms === undefined) return { doc };
    const fits = extra?.tag === tag && Array.isArray(extra.values) && extra.values.length === doc.chunks.length;
    // A page whose values do not fit still brings the terms its dictionary numbered.
    return fits ? { doc, derived: extra.values!, terms } : { doc, terms };
  });
}

function isNewTerms(value: unknown): value is NewTerms {
  const terms = value as Partial<NewTerms> | undefined;
  return typeof terms?.source === 'string' && Number.isInteger(terms.first) && Array.isArray(terms.terms);
}
