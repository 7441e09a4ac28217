import type { Embedder, Reranker } from '../../embed/types.ts';
import { AtlasError } from '../../errors.ts';
import { HEADING_PATH_SEPARATOR } from '../heading-path.ts';
import { queryIdentifiers } from '../analysis/identifiers.ts';
import { SEARCH_MODES, type Hit, type IndexBackend, type IngestReport, type SearchMode, type SearchOptions } from '../types.ts';
import { DEFAULT_FUSION, fuseRankings, withScore, type FusionWeights } from './vector-fusion.ts';
import { vectorModelMismatch } from './vector-errors.ts';
import type { EmbedProgress, VectorBackend, VectorStatus } from './vector-types.ts';

/** Each ranking fused in hybrid mode is read this deep (or k, when larger). */
export const FUSION_DEPTH = 50;
/** A reranker sees this many candidates (or k, when larger) and the best k are kept. */
export const RERANK_DEPTH = 30;
/** At most this many characters of a passage go to the reranker (heading path first). */
const RERANK_MAX_CHARS = 4000;
/** Query vectors kept per index (an agent pages through the same query). */
const QUERY_CACHE_SIZE = 64;

/** Options of {@link withRetrieval}. */
export interface RetrievalOptions {
  /** Embeds chunks after each ingest and queries at search time. */
  embedder?: Embedder;
  /** Reorders the top candidates of every search before the cut. */
  reranker?: Reranker;
  /** The mode of a search that names none (default: `hybrid` with an embedder, else `bm25`). */
  mode?: SearchMode;
  /** Fusion weights; unset fields keep {@link DEFAULT_FUSION}. */
  fusion?: Partial<FusionWeights>;
  /** Candidates per ranking fused in hybrid mode (default {@link FUSION_DEPTH}). */
  fusionDepth?: number;
  /** Candidates reranked (default {@link RERANK_DEPTH}). */
  rerankDepth?: number;
  /** Called after each embedding batch of an ingest (the CLI prints it on stderr). */
  onEmbedProgress?: (progress: EmbedProgress) => void;
}

/** An index that can hold vectors, optionally with a streamed ingest (the SQLite index). */
export type VectorCapableIndex = IndexBackend & VectorBackend & { ingestStream?: (...args: never[]) => Promise<IngestReport> };

/**
 * `index` with vectors, hybrid search and reranking. Without an embedder, a reranker or a mode it
 * is `index` itself: nothing changes. With an embedder, every ingest embeds the chunks that have
 * no vector once the text ingest has committed (keyed by content hash and model, so unchanged
 * documents make no call), and a search ranks by `options.mode ?? defaultMode`: `bm25`, `vector`
 * (k nearest, filters inside the query) or `hybrid` (reciprocal rank fusion of the best
 * {@link FUSION_DEPTH} of each). With a reranker, the best {@link RERANK_DEPTH} candidates are
 * reordered before the cut to k. A recorded model other than the embedder's is an AtlasError.
 *
 * @example
 * const index = withRetrieval(createSqliteIndex({ path }), { embedder: createHashEmbedder() });
 * await index.ingest(docs);                                     // text, then vectors
 * await index.search('paraphrased question', { k: 5 });         // hybrid
 * await index.search('ORB-1202', { k: 5, mode: 'bm25' });       // full text only
 */
export function withRetrieval<T extends VectorCapableIndex>(index: T, options: RetrievalOptions): T {
  const { embedder, reranker } = options;
  if (embedder === undefined && reranker === undefined && options.mode === undefined) return index;
  const defaultMode = checkMode(options.mode ?? (embedder ? 'hybrid' : 'bm25'));
  const fusion = { ...DEFAULT_FUSION, ...options.fusion };
  const queryVectors = new Map<string, number[]>();
  let checked: VectorStatus | undefined;
  const indexPath = typeof (index as { path?: unknown }).path === 'string' ? (index as unknown as { path: string }).path : '(this index)';

  const embedQuery = async (query: string, status: VectorStatus): Promise<number[]> => {
    const cached = queryVectors.get(query);
    if (cached !== undefined) return cached;
    const [vector] = await embedder!.embed([query]);
    if (vector === undefined || vector.length !== status.dimensions) {
      throw new AtlasError(
        'index-schema',
        `Atlas: ${embedder!.model} returned a query vector of ${vector?.length ?? 0} dimensions, but the index holds ${status.dimensions}. Use the model the index was built with, or rebuild it with atlas ingest --rebuild --embed ${embedder!.model}.`,
      );
    }
    if (queryVectors.size >= QUERY_CACHE_SIZE) queryVectors.delete(queryVectors.keys().next().value!);
    queryVectors.set(query, vector);
    return vector;
  };

  /** The recorded vectors, checked against the embedder; undefined when the mode may fall back to BM25. */
  const vectorsFor = async (mode: SearchMode, explicit: boolean): Promise<VectorStatus | undefined> => {
    if (embedder === undefined) {
      const status = await index.vectorStatus();
      throw new AtlasError(
        'usage',
        `Atlas: search mode "${mode}" needs an embedding model. Pass --embed ${status?.model ?? '<spec>'} (or set ATLAS_EMBED)${status ? '' : ' after an ingest with it'}, or use --mode bm25.`,
      );
    }
    // Model and dimensions of an open index do not change (a rebuild writes a new file): checked once.
    if (checked !== undefined) return checked;
    const status = await index.vectorStatus();
    if (status === undefined) {
      if (!explicit) return undefined;
      throw new AtlasError('usage', `Atlas: the index has no vectors, so search mode "${mode}" has nothing to search. Use --mode bm25, or add vectors first: atlas ingest <docs-dir> --embed ${embedder.model}`);
    }
    if (status.model !== embedder.model) throw vectorModelMismatch(indexPath, status.model, embedder.model);
    checked = status;
    return status;
  };

  const candidates = async (query: string, searchOptions: SearchOptions, depth: number): Promise<Hit[]> => {
    const mode = checkMode(searchOptions.mode ?? defaultMode);
    const base = { k: depth, ...(searchOptions.filter ? { filter: searchOptions.filter } : {}) };
    if (mode === 'bm25') return index.search(query, base);
    const status = await vectorsFor(mode, searchOptions.mode !== undefined || options.mode !== undefined);
    if (status === undefined) return index.search(query, base);
    const vector = await embedQuery(query, status);
    if (mode === 'vector') return index.searchVectors(query, vector, base);
    const wide = { ...base, k: Math.max(depth, options.fusionDepth ?? FUSION_DEPTH) };
    const [bm25, nearest] = await Promise.all([index.search(query, wide), index.searchVectors(query, vector, wide)]);
    const fused = fuseRankings(
      [
        { hits: bm25, weight: fusion.bm25 },
        { hits: nearest, weight: fusion.vector },
      ],
      fusion.k,
    );
    return onScale(identifierFirst(query, bm25, fused).slice(0, depth), bm25[0]?.score ?? nearest[0]?.score ?? 1);
  };

  const syncAfter = async (report: IngestReport): Promise<IngestReport> => {
    if (embedder === undefined) return report;
    const vectors = await index.syncVectors(embedder, options.onEmbedProgress ? { onProgress: options.onEmbedProgress } : {});
    return { ...report, vectors };
  };

  const wrapped: T = {
    ...index,
    async search(query: string, searchOptions: SearchOptions): Promise<Hit[]> {
      if (!Number.isInteger(searchOptions.k) || searchOptions.k < 1) {
        throw new AtlasError('usage', `Atlas: k must be a positive integer, got ${searchOptions.k}. Pass e.g. { k: 5 }.`);
      }
      if (reranker === undefined) return candidates(query, searchOptions, searchOptions.k);
      const pool = await candidates(query, searchOptions, Math.max(searchOptions.k, options.rerankDepth ?? RERANK_DEPTH));
      const order = await reranker.rerank(query, pool.map(rerankText));
      const reranked = order.slice(0, searchOptions.k).flatMap(({ index: position, score }) => (pool[position] ? [withScore(pool[position], score)] : []));
      return onScale(reranked, pool[0]?.score ?? 1);
    },
    async ingest(docs) {
      return syncAfter(await index.ingest(docs));
    },
  };
  if (index.ingestStream !== undefined) {
    const stream = index.ingestStream;
    (wrapped as { ingestStream: unknown }).ingestStream = async (...args: never[]) => syncAfter(await stream.apply(index, args));
  }
  return wrapped;
}

/**
 * For a query that names an identifier (`ORB-1202`, `max_payload_kb`, `--schema`), the best BM25
 * hit goes first in the fused order: exact names are what full text ranks best (the chunk that
 * defines the name is BM25's first hit, see definitions-first.ts), and a vector ranking spells no
 * identifier. The rest keeps the fused order.
 */
function identifierFirst(query: string, bm25: Hit[], fused: Hit[]): Hit[] {
  const best = bm25[0];
  if (best === undefined || fused[0]?.chunkId === best.chunkId || queryIdentifiers(query).length === 0) return fused;
  const position = fused.findIndex((hit) => hit.chunkId === best.chunkId);
  return [fused[position]!, ...fused.slice(0, position), ...fused.slice(position + 1)];
}

/**
 * `hits` (best first) with scores scaled so the first scores `top` (the best first-stage score):
 * callers compare scores with thresholds calibrated on BM25 (the weak-match note of a search
 * session, docs/calibration.md), and fused or rerank scores are on other scales. The order and
 * the ratios between scores are kept.
 */
function onScale(hits: Hit[], top: number): Hit[] {
  const best = hits[0]?.score;
  if (best === undefined || best <= 0) return hits;
  return hits.map((hit) => withScore(hit, (hit.score / best) * top));
}

/** Throws on a mode that is not one of {@link SEARCH_MODES}. */
function checkMode(mode: string): SearchMode {
  if ((SEARCH_MODES as readonly string[]).includes(mode)) return mode as SearchMode;
  throw new AtlasError('usage', `Atlas: unknown search mode "${mode}". Use one of: ${SEARCH_MODES.join(', ')}.`);
}

/** What the reranker reads of a passage: its heading path and text, cut to {@link RERANK_MAX_CHARS}. */
function rerankText(hit: Hit): string {
  return `${hit.headingPath.join(HEADING_PATH_SEPARATOR)}\n\n${hit.text}`.slice(0, RERANK_MAX_CHARS);
}
