import type { Embedder } from '../../embed/types.ts';
import type { Hit, SearchOptions, VectorSyncReport } from '../types.ts';

export type { VectorSyncReport } from '../types.ts';

/** What an index records about its vectors: the model (spec) and dimensions, and how many chunks have one. */
export interface VectorStatus {
  /** The embedder spec the vectors were made with, e.g. `openai:text-embedding-3-small`. */
  model: string;
  dimensions: number;
  /** Chunks with a vector. */
  vectors: number;
  /** Chunks without one yet (ingested without `--embed`, or an embedding run that failed part way). */
  missing: number;
}

/** Progress of an embedding run, reported after each batch. */
export interface EmbedProgress {
  /** Texts embedded so far in this run. */
  embedded: number;
  /** Texts this run has to embed (chunks whose content hash has no vector of this model). */
  total: number;
}

/** Options of {@link VectorBackend.syncVectors}. */
export interface SyncVectorsOptions {
  onProgress?: (progress: EmbedProgress) => void;
  abortSignal?: AbortSignal;
}

/**
 * The vector side of an index backend (the SQLite backend implements it with sqlite-vec; a
 * PostgreSQL one would with pgvector). {@link withRetrieval} drives it: it embeds after each
 * ingest and fuses `searchVectors` with BM25.
 */
export interface VectorBackend {
  /** The recorded model, dimensions and counts, or undefined when the index has no vectors. */
  vectorStatus(): Promise<VectorStatus | undefined>;
  /**
   * Gives every chunk without a vector one: a vector already stored for the same content hash and
   * model is reused, the others are embedded in batches of `embedder.maxBatch`, each batch
   * committed on its own (a failure keeps the batches done; the next sync resumes). A model or
   * dimensions other than the recorded ones is an AtlasError naming both.
   */
  syncVectors(embedder: Embedder, options?: SyncVectorsOptions): Promise<VectorSyncReport>;
  /**
   * The `k` chunks nearest to `vector` (cosine) among those that pass `options.filter`, the filter
   * applied inside the query before the cut; `score` is the cosine similarity, the snippet picked
   * with the words of `query`.
   */
  searchVectors(query: string, vector: number[], options: SearchOptions): Promise<Hit[]>;
}
