import { createHash } from 'node:crypto';
import type { Embedder } from '../../embed/types.ts';
import { AtlasError } from '../../errors.ts';
import { HEADING_PATH_SEPARATOR } from '../heading-path.ts';
import type { SyncVectorsOptions } from './vector-types.ts';

/** Meta keys of the recorded model and dimensions. */
export const MODEL_KEY = 'embedModel';
export const DIMENSIONS_KEY = 'embedDimensions';

/**
 * The text a chunk is embedded as: its heading path (title first), a blank line, its text.
 *
 * @example
 * embeddingInput({ heading_path: '["Leases","Renewal"]', text: 'Workers renew.' }); // 'Leases > Renewal\n\nWorkers renew.'
 */
export function embeddingInput(row: { heading_path: string; text: string }): string {
  return `${(JSON.parse(row.heading_path) as string[]).join(HEADING_PATH_SEPARATOR)}\n\n${row.text}`;
}

/**
 * Embeds `entries` (content key, text) in batches of the embedder's size, one call each
 * ({@link embedBatch}), checks each batch's vectors against the dimensions so far
 * ({@link checkVectors}), hands each batch to `store` (which writes it in a transaction of its
 * own, so a failed call keeps the batches done) and reports progress. Shared by the SQLite and
 * PostgreSQL syncs.
 *
 * @example
 * const { embedded, calls, dimensions } = await embedInBatches(embedder, [['k1', { text: 'A lease expires.' }]], {}, { dimensions: undefined, location: 'index.db' }, write);
 */
export async function embedInBatches<Entry extends { text: string }>(
  embedder: Embedder,
  entries: Array<[string, Entry]>,
  options: SyncVectorsOptions,
  known: { dimensions: number | undefined; location: string },
  store: (batch: Array<[string, Entry]>, vectors: number[][], dimensions: number) => void | Promise<void>,
): Promise<{ embedded: number; calls: number; dimensions: number | undefined }> {
  const batchSize = Math.max(1, embedder.maxBatch);
  let { dimensions } = known;
  let embedded = 0;
  let calls = 0;
  for (let start = 0; start < entries.length; start += batchSize) {
    const batch = entries.slice(start, start + batchSize);
    const vectors = await embedBatch(embedder, batch.map(([, entry]) => entry.text), options, { embedded, total: entries.length });
    calls += 1;
    dimensions = checkVectors(vectors, batch.length, dimensions, embedder.model, known.location);
    await store(batch, vectors, dimensions);
    embedded += batch.length;
    options.onProgress?.({ embedded, total: entries.length });
  }
  return { embedded, calls, dimensions };
}

/**
 * One embedding call; a failure (after the AI SDK's retries) becomes an AtlasError saying what
 * was kept and how to resume. Shared by the SQLite and PostgreSQL syncs.
 *
 * @example
 * const vectors = await embedBatch(embedder, ['Doc leases\n\nA lease expires.'], {}, { embedded: 0, total: 1 });
 */
export async function embedBatch(embedder: Embedder, texts: string[], options: SyncVectorsOptions, done: { embedded: number; total: number }): Promise<number[][]> {
  try {
    return await embedder.embed(texts, options.abortSignal ? { abortSignal: options.abortSignal } : {});
  } catch (error) {
    if (error instanceof AtlasError) throw error;
    throw new AtlasError(
      'model-call',
      `Atlas: embedding with ${embedder.model} failed after ${done.embedded} of ${done.total} texts: ${(error as Error).message}. The text index and the ${done.embedded} vectors made are kept; run the same atlas ingest --embed ${embedder.model} again to embed the rest.`,
      { cause: error },
    );
  }
}

/**
 * Checks one batch's vectors (count, equal lengths, finite numbers, the recorded dimensions);
 * returns the dimensions.
 *
 * @example
 * checkVectors([[0.1, 0.2]], 1, undefined, 'hash:2', '.atlas/index.db'); // 2
 */
export function checkVectors(vectors: number[][], expected: number, recorded: number | undefined, model: string, path: string): number {
  if (vectors.length !== expected) {
    throw new AtlasError('model-call', `Atlas: the embedding model ${model} returned ${vectors.length} vectors for ${expected} texts. Check the model and the server, then run the ingest again (done batches are kept).`);
  }
  const dimensions = recorded ?? vectors[0]?.length ?? 0;
  for (const vector of vectors) {
    if (vector.length !== dimensions || dimensions === 0) {
      throw new AtlasError(
        'index-schema',
        `Atlas: the embedding model ${model} returned vectors of ${vector.length} dimensions, but the index at ${path} holds ${dimensions}. Use the model the index was built with, or rebuild: atlas ingest <docs-dir> --db ${path} --rebuild --embed ${model}`,
      );
    }
    if (!vector.every(Number.isFinite)) {
      throw new AtlasError('model-call', `Atlas: the embedding model ${model} returned a vector with a value that is not a finite number. Check the model and the server.`);
    }
  }
  return dimensions;
}

/**
 * sha256 of model and text: the key under which a vector is stored and found again.
 *
 * @example
 * contentKey('hash:256', 'Doc leases\n\nA lease expires.'); // 'q3v…' (base64url)
 */
export function contentKey(model: string, text: string): string {
  return createHash('sha256').update(model).update('\u0000').update(text).digest('base64url');
}

/** A vector as the float32 blob the tables store. */
export function toBlob(vector: number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}
