/**
 * What the index needs of an embedding model: a stable name (recorded in the index, so a search
 * with another model is refused), the largest batch one call takes, and a batch call. Built from
 * a spec by `resolveEmbedder` (AI SDK providers) or `createHashEmbedder` (deterministic, offline).
 *
 * @example
 * const embedder: Embedder = createHashEmbedder({ dimensions: 256 });
 * const [vector] = await embedder.embed(['lease timeout']); // 256 numbers, unit length
 */
export interface Embedder {
  /** The spec the embedder was built from, e.g. `openai:text-embedding-3-small`; recorded in the index. */
  readonly model: string;
  /** The most texts one `embed` call takes (the provider's limit). */
  readonly maxBatch: number;
  /** One vector per text, in order; every vector has the same length. */
  embed(texts: string[], options?: { abortSignal?: AbortSignal }): Promise<number[][]>;
}

/** One document's place in a reranked order: its index in the input list and the model's relevance score. */
export interface RerankedItem {
  index: number;
  score: number;
}

/**
 * Reorders candidate passages by relevance to a query (a cross-encoder such as Cohere's rerank
 * models). Built from a spec by `resolveReranker`.
 *
 * @example
 * const order = await reranker.rerank('lease timeout', ['passage a', 'passage b']);
 * // [{ index: 1, score: 0.93 }, { index: 0, score: 0.12 }]
 */
export interface Reranker {
  /** The spec it was built from, e.g. `cohere:rerank-v3.5`. */
  readonly model: string;
  /** Every document's index, best first (ties keep input order). */
  rerank(query: string, documents: string[], options?: { abortSignal?: AbortSignal }): Promise<RerankedItem[]>;
}
