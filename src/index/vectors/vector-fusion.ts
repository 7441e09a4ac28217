import type { Hit } from '../types.ts';

/**
 * Reciprocal rank fusion settings: a chunk at 1-based rank r of a ranking gains
 * `weight / (k + r)`; its fused score is the sum over the rankings it is in.
 */
export interface FusionWeights {
  /** Weight of the BM25 ranking. */
  bm25: number;
  /** Weight of the vector ranking. */
  vector: number;
  /** The RRF constant: larger flattens the advantage of the top ranks (60, as Cormack et al. 2009). */
  k: number;
}

/**
 * Equal weights and k = 60: neither ranking is trusted more before a real embedding model has
 * been measured on the corpus (docs/vectors.md has the dev-set numbers).
 */
export const DEFAULT_FUSION: Readonly<FusionWeights> = Object.freeze({ bm25: 1, vector: 1, k: 60 });

/** One ranking to fuse, best first, and its weight. */
export interface WeightedRanking {
  hits: Hit[];
  weight: number;
}

/**
 * Fuses rankings by reciprocal rank (`sum of weight / (k + rank)`), each chunk once, best first;
 * a tie goes to the chunk with the better best rank, then to the earlier ranking. The hits keep
 * their fields (snippets stay lazy); `score` becomes the fused score.
 *
 * @example
 * fuseRankings([{ hits: bm25Hits, weight: 1 }, { hits: vectorHits, weight: 1 }], 60);
 * // a chunk 1st in both: 2/61 = 0.0328; 1st in one only: 1/61 = 0.0164
 */
export function fuseRankings(rankings: WeightedRanking[], k: number = DEFAULT_FUSION.k): Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; bestRank: number; firstList: number }>();
  rankings.forEach(({ hits, weight }, list) => {
    hits.forEach((hit, position) => {
      const rank = position + 1;
      const gain = weight / (k + rank);
      const entry = fused.get(hit.chunkId);
      if (entry === undefined) fused.set(hit.chunkId, { hit, score: gain, bestRank: rank, firstList: list });
      else {
        entry.score += gain;
        entry.bestRank = Math.min(entry.bestRank, rank);
      }
    });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || a.firstList - b.firstList)
    .map((entry) => withScore(entry.hit, entry.score));
}

/**
 * A copy of `hit` with another score, its property descriptors kept (a lazy snippet is not computed).
 *
 * @example
 * withScore(hit, 0.5).score; // 0.5
 */
export function withScore(hit: Hit, score: number): Hit {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(hit)) as Hit;
  Object.defineProperty(copy, 'score', { value: score, enumerable: true, writable: true, configurable: true });
  return copy;
}
