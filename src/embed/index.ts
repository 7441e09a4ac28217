/**
 * Embedding and reranking models: the small {@link Embedder} and {@link Reranker} interfaces the
 * index uses, built from specs through the AI SDK, and a deterministic offline embedder.
 *
 * @example
 * import { resolveEmbedder } from './embed/index.ts';
 * const embedder = resolveEmbedder('openai:text-embedding-3-small', { env: process.env });
 */
export type { Embedder, RerankedItem, Reranker } from './types.ts';
export { EMBED_SPEC_FORMS, parseEmbedSpec, parseRerankSpec, RERANK_SPEC_FORMS, type EmbedSpec, type RerankSpec } from './embed-spec.ts';
export { createHashEmbedder, DEFAULT_HASH_DIMENSIONS, type HashEmbedderOptions } from './hash-embedder.ts';
export { createAiSdkEmbedder, createAiSdkReranker, EMBED_TIMEOUT_MS, MAX_EMBED_BATCH, type AiSdkEmbedderOptions, type AiSdkRerankerOptions } from './ai-sdk-embedder.ts';
export { resolveEmbedder, resolveReranker, type ResolveEmbedOptions } from './resolve.ts';
