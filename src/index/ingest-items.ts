import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusBatch, PageWorker } from '../corpus/index.ts';
import type { IngestItem } from './ingest-session.ts';
import type { NewTerms } from './chunk-terms.ts';
import type { DerivedChunkValues } from './ingest-writer.ts';
import type { TokenizerOptions } from './tokenize.ts';

/** What an ingest worker is started with (`PageWorker.data`). */
export interface IngestWorkerData {
  tokenizer: TokenizerOptions;
}

/**
 * The extra value an ingest worker makes per page: the derived values of its chunks, the
 * settings they were derived with, and the terms the worker's dictionary numbered first for them.
 */
export interface DerivedPage {
  tag: string;
  values: readonly DerivedChunkValues[];
  terms: NewTerms;
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
export function ingestPageWorker(tokenizer: TokenizerOptions): PageWorker {
  const data: IngestWorkerData = { tokenizer: { ...tokenizer } };
  return { url: new URL(`./ingest-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url), data };
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
