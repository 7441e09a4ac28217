import { describe, expect, it } from 'vitest';
import { parseEmbedSpec, parseRerankSpec } from './embed-spec.ts';

const FORMS = 'Use one of: openai:<model>, ollama:<model>, openai-compatible:<baseURL>#<model>, hash:<dimensions> (deterministic, offline) (e.g. --embed openai:text-embedding-3-small).';

describe('parseEmbedSpec', () => {
  it('parses each provider form', () => {
    expect(parseEmbedSpec('openai:text-embedding-3-small')).toEqual({ provider: 'openai', modelId: 'text-embedding-3-small' });
    expect(parseEmbedSpec('ollama:nomic-embed-text')).toEqual({ provider: 'ollama', modelId: 'nomic-embed-text' });
    expect(parseEmbedSpec('openai-compatible:http://localhost:8080/v1#bge-small')).toEqual({ provider: 'openai-compatible', baseURL: 'http://localhost:8080/v1', modelId: 'bge-small' });
    expect(parseEmbedSpec('hash:256')).toEqual({ provider: 'hash', dimensions: 256 });
  });

  it('names the spec, the reason and the forms', () => {
    expect(() => parseEmbedSpec('text-embedding-3-small')).toThrow(`Atlas: invalid embedding model "text-embedding-3-small": it has no provider prefix. ${FORMS}`);
    expect(() => parseEmbedSpec('anthropic:claude')).toThrow(`Atlas: invalid embedding model "anthropic:claude": "anthropic" is not a known embedding provider. ${FORMS}`);
    expect(() => parseEmbedSpec('openai:')).toThrow(`Atlas: invalid embedding model "openai:": the model id after "openai:" is missing or contains spaces. ${FORMS}`);
    expect(() => parseEmbedSpec('openai-compatible:localhost#m')).toThrow(`Atlas: invalid embedding model "openai-compatible:localhost#m": "localhost" is not an http(s) URL. ${FORMS}`);
    expect(() => parseEmbedSpec('hash:1.5')).toThrow(`Atlas: invalid embedding model "hash:1.5": hash needs a number of dimensions from 2 to 8192 (hash:256). ${FORMS}`);
  });
});

describe('parseRerankSpec', () => {
  it('parses cohere and refuses the rest', () => {
    expect(parseRerankSpec('cohere:rerank-v3.5')).toEqual({ provider: 'cohere', modelId: 'rerank-v3.5' });
    expect(parseRerankSpec('togetherai:Salesforce/Llama-Rank-v1')).toEqual({ provider: 'togetherai', modelId: 'Salesforce/Llama-Rank-v1' });
    expect(() => parseRerankSpec('openai:gpt')).toThrow(
      'Atlas: invalid rerank model "openai:gpt": "openai" is not a known rerank provider. Use one of: cohere:<model>, togetherai:<model> (e.g. --rerank cohere:rerank-v3.5).',
    );
  });
});
