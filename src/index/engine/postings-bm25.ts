import type { RankStats } from './rank-request.ts';
import type { StoredTerm } from './postings-store.ts';

/**
 * What the postings search (postings-search.ts, postings-cursor.ts) scores with: FTS5's BM25
 * parameters and length normalisation (fts5_aux.c), tabulated per average chunk length; a query
 * term's IDF and multiplicity; what every term's scoring shares; the threshold a bound is compared with.
 */

/** FTS5's BM25 parameters. */
export const K1 = 1.2;
const B = 0.75;

/** Chunk lengths (in tokens) whose {@link lengthNorm} {@link lengthNorms} tabulates: nearly every chunk is shorter. */
export const NORM_LENGTHS = 4_096;

/** BM25's length normalisation of a chunk of `length` tokens, `k1 * (1 - b + b * length / avgdl)`, as fts5_aux.c computes it. */
export function lengthNorm(length: number, averageLength: number): number {
  return K1 * (1 - B + (B * length) / averageLength);
}

/**
 * {@link lengthNorm} of the lengths 0 to {@link NORM_LENGTHS} - 1 for `averageLength` (the same
 * doubles, so scores stay FTS5's to the last bit): a table look-up per posting instead of a
 * division. `reuse` is returned when it was made for the same average length.
 *
 * @example
 * lengthNorms(95.2)[12] === lengthNorm(12, 95.2); // true
 */
export function lengthNorms(averageLength: number, reuse?: { averageLength: number; norms: Float64Array }): Float64Array {
  if (reuse !== undefined && reuse.averageLength === averageLength) return reuse.norms;
  const norms = new Float64Array(NORM_LENGTHS);
  for (let length = 0; length < NORM_LENGTHS; length += 1) norms[length] = lengthNorm(length, averageLength);
  return norms;
}

/** A query term as the search scores it. */
export interface TermInfo {
  stored: StoredTerm;
  /** How many of the query's phrases are this term. */
  multiplicity: number;
  /** FTS5's IDF: log((N - df + 0.5) / (df + 0.5)), at least 1e-6. */
  idf: number;
}

/** What every term's scoring shares: weights, N, average length, the optional stats. */
export interface Scoring {
  weights: ArrayLike<number>;
  averageLength: number;
  /** {@link lengthNorm} of each chunk length below its size, for this average length ({@link lengthNorms}). */
  norms: Float64Array;
  chunks: number;
  stats?: RankStats;
}

/** `threshold` minus a relative 1e-12 (-Infinity stays -Infinity). */
export function lowered(threshold: number): number {
  return threshold - Math.abs(threshold) * 1e-12;
}
