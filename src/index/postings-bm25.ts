/**
 * FTS5's BM25 parameters and length normalisation (fts5_aux.c), as the postings search scores
 * (postings-cursor.ts): the normalisation tabulated per average chunk length.
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
