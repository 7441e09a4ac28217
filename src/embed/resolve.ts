import { createCohere } from '@ai-sdk/cohere';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createTogetherAI } from '@ai-sdk/togetherai';
import type { RerankingModelV3 } from '@ai-sdk/provider';
import { AtlasError } from '../errors.ts';
import { DEFAULT_BASE_URLS, nonEmptyEnv, optionalBaseUrl } from '../provider-env.ts';
import { createAiSdkEmbedder, createAiSdkReranker } from './ai-sdk-embedder.ts';
import { parseEmbedSpec, parseRerankSpec } from './embed-spec.ts';
import { createHashEmbedder } from './hash-embedder.ts';
import type { Embedder, Reranker } from './types.ts';

/** Options of {@link resolveEmbedder} and {@link resolveReranker}. */
export interface ResolveEmbedOptions {
  /** Where keys and base URLs are read from (the CLI passes `process.env`); never read implicitly. */
  env: Record<string, string | undefined>;
  /** Passed to the provider client (tests point it at a loopback server). */
  fetch?: typeof fetch;
  /** AI SDK retries per call (default 2). */
  maxRetries?: number;
  /** Time limit of one embedding call in ms, retries included (default 120 s). */
  timeoutMs?: number;
}


/**
 * Builds the {@link Embedder} of an embedding spec. Keys and base URLs come from `options.env`:
 * `OPENAI_API_KEY`/`OPENAI_BASE_URL` (OpenAI `/embeddings`), `OLLAMA_BASE_URL` (default
 * `http://localhost:11434/v1`, Ollama's OpenAI-compatible `/v1/embeddings`),
 * `OPENAI_COMPATIBLE_API_KEY` (optional, any OpenAI-compatible server). `hash:<dims>` is the
 * deterministic offline embedder.
 *
 * @example
 * const embedder = resolveEmbedder('ollama:nomic-embed-text', { env: process.env });
 */
export function resolveEmbedder(spec: string, options: ResolveEmbedOptions): Embedder {
  const parsed = parseEmbedSpec(spec);
  const { env, fetch } = options;
  const wrap = (model: Parameters<typeof createAiSdkEmbedder>[0]['model']) =>
    createAiSdkEmbedder({
      model,
      spec,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  switch (parsed.provider) {
    case 'hash':
      return createHashEmbedder({ dimensions: parsed.dimensions });
    case 'openai': {
      const apiKey = requireKey(env, 'OPENAI_API_KEY', spec, '--embed hash:256 (offline, for plumbing checks only)');
      const baseURL = optionalBaseUrl(env, 'OPENAI_BASE_URL') ?? DEFAULT_BASE_URLS.openai;
      return wrap(createOpenAI({ apiKey, baseURL, fetch }).embedding(parsed.modelId));
    }
    case 'ollama': {
      const baseURL = optionalBaseUrl(env, 'OLLAMA_BASE_URL') ?? DEFAULT_BASE_URLS.ollama;
      return wrap(createOpenAICompatible({ name: 'ollama', baseURL, fetch }).embeddingModel(parsed.modelId));
    }
    case 'openai-compatible': {
      const apiKey = nonEmptyEnv(env.OPENAI_COMPATIBLE_API_KEY);
      const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: parsed.baseURL, fetch, ...(apiKey === undefined ? {} : { apiKey }) });
      return wrap(provider.embeddingModel(parsed.modelId));
    }
  }
}

/**
 * Builds the {@link Reranker} of a rerank spec: `cohere:<model>` (Cohere `/v2/rerank`, key in
 * `COHERE_API_KEY`, base URL `COHERE_BASE_URL`, default `https://api.cohere.com/v2`) or
 * `togetherai:<model>` (Together `/v1/rerank`, `TOGETHER_API_KEY`, `TOGETHER_BASE_URL`).
 *
 * @example
 * const reranker = resolveReranker('cohere:rerank-v3.5', { env: process.env });
 */
export function resolveReranker(spec: string, options: ResolveEmbedOptions): Reranker {
  const parsed = parseRerankSpec(spec);
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  // @ai-sdk/cohere 3.x and @ai-sdk/togetherai 2.x carry their own copy of @ai-sdk/provider 3.0.x: the same RerankingModelV3 shape.
  let model: RerankingModelV3;
  if (parsed.provider === 'cohere') {
    const apiKey = requireKey(options.env, 'COHERE_API_KEY', spec, 'no --rerank');
    const baseURL = optionalBaseUrl(options.env, 'COHERE_BASE_URL') ?? DEFAULT_BASE_URLS.cohere;
    model = createCohere({ apiKey, baseURL, ...fetchOption }).reranking(parsed.modelId) as unknown as RerankingModelV3;
  } else {
    const apiKey = requireKey(options.env, 'TOGETHER_API_KEY', spec, 'no --rerank');
    const baseURL = optionalBaseUrl(options.env, 'TOGETHER_BASE_URL') ?? DEFAULT_BASE_URLS.together;
    model = createTogetherAI({ apiKey, baseURL, ...fetchOption }).reranking(parsed.modelId) as unknown as RerankingModelV3;
  }
  return createAiSdkReranker({ model, spec, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) });
}

function requireKey(env: ResolveEmbedOptions['env'], name: string, spec: string, instead: string): string {
  const key = nonEmptyEnv(env[name]);
  if (key === undefined) throw new AtlasError('model-config', `Atlas: ${name} is not set, needed for "${spec}". Set it, or use ${instead}.`);
  return key;
}


