import type { EmbeddingModelV3, RerankingModelV3 } from '@ai-sdk/provider';
import { embedMany, rerank } from 'ai';
import type { Embedder, Reranker, RerankedItem } from './types.ts';

/**
 * At most this many texts per embedding call: chunks run to ~450 tokens, and OpenAI refuses a
 * request over 300k tokens whatever its 2048-input limit; smaller calls also report progress often.
 */
export const MAX_EMBED_BATCH = 128;

/** Options of {@link createAiSdkEmbedder}. */
export interface AiSdkEmbedderOptions {
  /** An AI SDK embedding model, e.g. `createOpenAI({ apiKey }).embedding('text-embedding-3-small')`. */
  model: EmbeddingModelV3;
  /** The spec it was built from; recorded in the index. */
  spec: string;
  /** Retries per call on 429/5xx and network faults (AI SDK `maxRetries`, default 2). */
  maxRetries?: number;
  /** Aborts one batch call (its retries included) after this many ms (default {@link EMBED_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Default time limit of one embedding call, retries included: 120 s. */
export const EMBED_TIMEOUT_MS = 120_000;

/**
 * An {@link Embedder} over an AI SDK embedding model: one `embedMany` call per batch of at most
 * the provider's `maxEmbeddingsPerCall` (and {@link MAX_EMBED_BATCH}), retried by the AI SDK,
 * aborted after `timeoutMs` (a server that never answers cannot hang an ingest).
 *
 * @example
 * const embedder = createAiSdkEmbedder({ model: createOpenAI({ apiKey }).embedding('text-embedding-3-small'), spec: 'openai:text-embedding-3-small' });
 * const vectors = await embedder.embed(['lease timeout']);
 */
export function createAiSdkEmbedder(options: AiSdkEmbedderOptions): Embedder {
  const providerMax = typeof options.model.maxEmbeddingsPerCall === 'number' ? options.model.maxEmbeddingsPerCall : MAX_EMBED_BATCH;
  return {
    model: options.spec,
    maxBatch: Math.max(1, Math.min(providerMax, MAX_EMBED_BATCH)),
    async embed(texts, callOptions = {}) {
      if (texts.length === 0) return [];
      const timeout = AbortSignal.timeout(options.timeoutMs ?? EMBED_TIMEOUT_MS);
      const result = await embedMany({
        model: options.model,
        values: texts,
        maxRetries: options.maxRetries ?? 2,
        abortSignal: callOptions.abortSignal ? AbortSignal.any([callOptions.abortSignal, timeout]) : timeout,
      });
      return result.embeddings;
    },
  };
}

/** Options of {@link createAiSdkReranker}. */
export interface AiSdkRerankerOptions {
  /** An AI SDK reranking model, e.g. `createCohere({ apiKey }).reranking('rerank-v3.5')`. */
  model: RerankingModelV3;
  spec: string;
  /** Retries per call (AI SDK `maxRetries`, default 2). */
  maxRetries?: number;
}

/**
 * A {@link Reranker} over an AI SDK reranking model (`rerank()`): every document comes back,
 * best first; documents the provider leaves out follow in their input order.
 *
 * @example
 * const reranker = createAiSdkReranker({ model: createCohere({ apiKey }).reranking('rerank-v3.5'), spec: 'cohere:rerank-v3.5' });
 * await reranker.rerank('lease timeout', ['a', 'b']); // [{ index: 1, score: 0.9 }, { index: 0, score: 0.1 }]
 */
export function createAiSdkReranker(options: AiSdkRerankerOptions): Reranker {
  return {
    model: options.spec,
    async rerank(query, documents, callOptions = {}): Promise<RerankedItem[]> {
      if (documents.length === 0) return [];
      const result = await rerank({
        model: options.model,
        query,
        documents,
        topN: documents.length,
        maxRetries: options.maxRetries ?? 2,
        ...(callOptions.abortSignal ? { abortSignal: callOptions.abortSignal } : {}),
      });
      const ranked: RerankedItem[] = result.ranking.map((item) => ({ index: item.originalIndex, score: item.score }));
      const seen = new Set(ranked.map((item) => item.index));
      const lowest = ranked.length === 0 ? 0 : Math.min(...ranked.map((item) => item.score));
      for (let index = 0; index < documents.length; index += 1) if (!seen.has(index)) ranked.push({ index, score: lowest });
      return ranked;
    },
  };
}
