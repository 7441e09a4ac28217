import type { Chunk, Doc, LabelValue } from '../corpus/types.ts';
import type { DocumentFrequencies } from './engine/term-frequencies.ts';

export type { DocumentFrequencies } from './engine/term-frequencies.ts';

/**
 * A search result: the chunk, its score (higher is better, falling with the rank; a chunk moved
 * in front for defining a name the query names scores above every other), a <=300-character
 * snippet and, when the snippet lies under a heading inside the chunk's text, that heading's path.
 */
export interface Hit extends Chunk {
  score: number;
  snippet: string;
  /**
   * The heading path of the part of the chunk the snippet comes from, when that part lies under a
   * heading line of the chunk's text (a small section merged into its neighbour, a subsection held
   * in its section): `['Task executors', 'helpers', 'helpers.addJob()']` for a match under
   * "### `helpers.addJob()`" in a chunk named after `helpers.abortSignal`. Undefined when the
   * snippet lies under the chunk's own `headingPath`.
   */
  snippetHeadingPath?: string[];
}

/**
 * Who is asking: the access groups a page's `labels.acl` is checked against.
 *
 * @example
 * const principal: Principal = { groups: ['staff'] };
 */
export interface Principal {
  groups: string[];
}

/**
 * Filters applied inside the index, before the top-k cut, by search, getChunk and neighbors alike.
 * `version` keeps chunks whose applies_to is that version or "all".
 * `labels` keeps chunks whose label has one of the given values or "all", or that lack the label
 * (every listed label must match): `{ store: 'Aundh' }` keeps Aundh pages, all-store pages and
 * pages without a store.
 * `principal`: chunks with an `acl` label are kept only for a principal in one of those groups;
 * without a principal only public chunks (no `acl`) are found. A hidden chunk is "not found",
 * exactly like an unknown id.
 */
export interface SearchFilter {
  version?: string;
  labels?: Record<string, LabelValue>;
  principal?: Principal;
}

/**
 * How a search ranks: `bm25` (full-text, the default without an embedder), `vector` (nearest
 * chunks by embedding), `hybrid` (both fused by reciprocal rank; the default with an embedder).
 * See docs/vectors.md.
 */
export type SearchMode = 'bm25' | 'vector' | 'hybrid';

/** The search modes, in the order help text lists them. */
export const SEARCH_MODES: ReadonlyArray<SearchMode> = ['bm25', 'vector', 'hybrid'];

export interface SearchOptions {
  k: number;
  filter?: SearchFilter;
  /**
   * The ranking; unset means the index's default (`hybrid` for an index searched with an
   * embedder, see `withRetrieval`, else `bm25`). A backend without an embedder refuses the others.
   */
  mode?: SearchMode;
}

/** What an ingest changed. The four lists hold document ids, sorted. */
export interface IngestReport {
  added: string[];
  /** Documents whose contentHash changed: their chunks were replaced. */
  updated: string[];
  /** Documents whose contentHash was unchanged: skipped. */
  unchanged: string[];
  /** Documents in the index but not in this ingest: deleted. */
  removed: string[];
  /** Chunks in the index after the ingest. */
  chunks: number;
  /** The index version after the ingest. */
  indexVersion: string;
  /** What the embedding run after the ingest did (only when the index is searched with an embedder). */
  vectors?: VectorSyncReport;
}

/** The boundary every index backend implements (SQLite now, PostgreSQL later). */
export interface IndexBackend {
  search(query: string, options: SearchOptions): Promise<Hit[]>;
  /** The chunk, or undefined for an unknown id and for a chunk the filter (or the principal's access) hides. */
  getChunk(chunkId: string, filter?: SearchFilter): Promise<Chunk | undefined>;
  /** Previous and next chunk of the same document (those that exist and pass the filter), in order. */
  neighbors(chunkId: string, filter?: SearchFilter): Promise<Chunk[]>;
  /** Replaces the index content with these documents, atomically and incrementally. */
  ingest(docs: Doc[]): Promise<IngestReport>;
  /** Changes whenever indexed content changes. */
  indexVersion(): Promise<string>;
  stats(): Promise<{ docs: number; chunks: number }>;
  /**
   * How many chunks of the whole index hold each of `words` (each word tokenized as the index
   * tokenizes text), and how many chunks there are: what a search session weighs a query's words
   * by when it measures how much of the query its passages cover (rare words weigh more).
   * Undefined when the index holds restricted pages (an `acl` label): counts over pages a reader
   * may not see would tell of their words. Optional: without it every word weighs the same.
   *
   * @example
   * await index.documentFrequencies?.(['lease', 'kubernetes']); // { chunks: 359, frequencies: [41, 3] }
   */
  documentFrequencies?(words: readonly string[]): Promise<DocumentFrequencies | undefined>;
  /** The release lines pages apply to (`applies_to` values other than "all"), sorted; lets callers flag an unknown `--version`. */
  releaseLines?(): Promise<string[]>;
  /**
   * The distinct values of label `name` on the chunks that pass `filter` (and so only on pages
   * the filter's principal may read), "all" left out, sorted by code point. Lists the values a
   * model may choose for a declared model label (see `ModelLabel`).
   *
   * @example
   * await index.labelValues('store', { principal: { groups: ['staff'] } }); // ['Aundh', 'Baner']
   */
  labelValues(name: string, filter?: SearchFilter): Promise<string[]>;
  close(): Promise<void>;
}

/** What a vector sync did. */
export interface VectorSyncReport {
  model: string;
  dimensions: number;
  /** Texts sent to the embedder (one per distinct new content hash). */
  embedded: number;
  /** Chunks that got a vector already stored for their content hash (no embedding call). */
  reused: number;
  /** Embedding calls made. */
  calls: number;
  /** Chunks with a vector after the sync. */
  vectors: number;
}
