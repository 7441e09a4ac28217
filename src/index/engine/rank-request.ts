// What a top-k BM25 search over the postings is asked and what it returns: the types the search,
// its seed, its top-k heap and the BM25 scoring share (postings-search.ts re-exports them).
import type { RankScratch } from './postings-scratch.ts';

/** A ranked chunk: its id and its BM25 score (higher is better). */
export interface ScoredId {
  id: number;
  score: number;
}

/** What {@link topByBm25} ranks. */
export interface RankRequest {
  /** The query's tokens, one per phrase in query order; a token may repeat (FTS5 scores each phrase). */
  tokens: readonly string[];
  /** The weight of each column (title, heading, headings between, body, identifier expansions). */
  weights: ArrayLike<number>;
  k: number;
  /** Whether a chunk passes the filter; asked only of chunks that would enter the top k. */
  accept?: (id: number) => boolean;
  /** Counts what the search did, when given (tests and benchmarks read it). */
  stats?: RankStats;
  /** Buffers to reuse from one call to the next (see {@link createRankScratch}); fresh ones otherwise. */
  scratch?: RankScratch;
}

/** What one {@link topByBm25} call read: postings decoded and blocks skipped undecoded. */
export interface RankStats {
  /** Postings decoded (a block is decoded whole). */
  decoded: number;
  /** Postings of the query's terms (their document frequencies added up). */
  postings: number;
  /** Chunks scored from the essential terms. */
  candidates?: number;
  /** Look-ups of a chunk in a non-essential term. */
  probes?: number;
}
