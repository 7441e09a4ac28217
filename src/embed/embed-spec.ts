import { AtlasError } from '../errors.ts';
import { isHttpUrl } from '../provider-env.ts';

/** An embedding model spec taken apart; see {@link parseEmbedSpec}. */
export type EmbedSpec =
  | { provider: 'openai' | 'ollama'; modelId: string }
  | { provider: 'openai-compatible'; modelId: string; baseURL: string }
  | { provider: 'hash'; dimensions: number };

/** A reranking model spec taken apart; see {@link parseRerankSpec}. */
export interface RerankSpec {
  provider: 'cohere' | 'togetherai';
  modelId: string;
}

/** The embedding spec forms, as listed in error messages and help text. */
export const EMBED_SPEC_FORMS = 'openai:<model>, ollama:<model>, openai-compatible:<baseURL>#<model>, hash:<dimensions> (deterministic, offline)';

/** The rerank spec forms, as listed in error messages and help text. */
export const RERANK_SPEC_FORMS = 'cohere:<model>, togetherai:<model>';

/**
 * Parses an embedding model spec (`--embed`, `ATLAS_EMBED`). Throws `AtlasError('usage')` naming
 * the spec, the reason and the accepted forms otherwise.
 *
 * @example
 * parseEmbedSpec('openai:text-embedding-3-small'); // { provider: 'openai', modelId: 'text-embedding-3-small' }
 * parseEmbedSpec('openai-compatible:http://localhost:8080/v1#bge-small'); // { provider: 'openai-compatible', baseURL: 'http://localhost:8080/v1', modelId: 'bge-small' }
 * parseEmbedSpec('hash:256'); // { provider: 'hash', dimensions: 256 }
 */
export function parseEmbedSpec(spec: string): EmbedSpec {
  const { provider, rest } = splitSpec(spec);
  const bad = (reason: string) =>
    new AtlasError('usage', `Atlas: invalid embedding model "${spec}": ${reason}. Use one of: ${EMBED_SPEC_FORMS} (e.g. --embed openai:text-embedding-3-small).`);
  switch (provider) {
    case 'openai':
    case 'ollama':
      if (!isModelId(rest)) throw bad(`the model id after "${provider}:" is missing or contains spaces`);
      return { provider, modelId: rest };
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash === -1) throw bad('openai-compatible needs "<baseURL>#<model>"');
      const baseURL = rest.slice(0, hash);
      const modelId = rest.slice(hash + 1);
      if (!isHttpUrl(baseURL)) throw bad(`"${baseURL}" is not an http(s) URL`);
      if (!isModelId(modelId)) throw bad('the model id after "#" is missing or contains spaces');
      return { provider, modelId, baseURL };
    }
    case 'hash': {
      const dimensions = Number(rest);
      if (!/^\d+$/.test(rest) || dimensions < 2 || dimensions > 8192) throw bad('hash needs a number of dimensions from 2 to 8192 (hash:256)');
      return { provider, dimensions };
    }
    default:
      throw bad(provider === undefined ? 'it has no provider prefix' : `"${provider}" is not a known embedding provider`);
  }
}

/**
 * Parses a reranking model spec (`--rerank`, `ATLAS_RERANK`).
 *
 * @example
 * parseRerankSpec('cohere:rerank-v3.5'); // { provider: 'cohere', modelId: 'rerank-v3.5' }
 * parseRerankSpec('togetherai:Salesforce/Llama-Rank-v1'); // { provider: 'togetherai', modelId: 'Salesforce/Llama-Rank-v1' }
 */
export function parseRerankSpec(spec: string): RerankSpec {
  const { provider, rest } = splitSpec(spec);
  const bad = (reason: string) =>
    new AtlasError('usage', `Atlas: invalid rerank model "${spec}": ${reason}. Use one of: ${RERANK_SPEC_FORMS} (e.g. --rerank cohere:rerank-v3.5).`);
  if (provider !== 'cohere' && provider !== 'togetherai') throw bad(provider === undefined ? 'it has no provider prefix' : `"${provider}" is not a known rerank provider`);
  if (!isModelId(rest)) throw bad(`the model id after "${provider}:" is missing or contains spaces`);
  return { provider, modelId: rest };
}

function splitSpec(spec: string): { provider: string | undefined; rest: string } {
  const colon = spec.indexOf(':');
  return colon <= 0 ? { provider: undefined, rest: spec } : { provider: spec.slice(0, colon), rest: spec.slice(colon + 1) };
}

function isModelId(value: string): boolean {
  return value.length > 0 && !/\s/.test(value);
}
