import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hangResponse, jsonResponse, serverErrorResponse, startLoopbackServer, type ScriptedResponse } from '../testing/loopback-server.ts';
import { resolveEmbedder, resolveReranker } from './resolve.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

/** A loopback server replaying `script`, closed (and checked for surplus or missing calls) after the test. */
async function replay(script: ScriptedResponse[]) {
  const server = await startLoopbackServer(script);
  onTestFinished(async () => {
    await server.close();
  });
  return server;
}

/** The float32 round trip the providers do not do: numbers as the fixture holds them. */
const OPENAI_VECTORS = [
  [0.0023064255, -0.009327292, 0.015797347],
  [-0.0071445657, 0.024726808, -0.005239522],
];

describe('resolveEmbedder over the real AI SDK clients (loopback replay)', () => {
  it('openai: POST /v1/embeddings with the key, the model and every text', async () => {
    const server = await replay([jsonResponse(fixture('openai-embeddings.json'))]);
    const embedder = resolveEmbedder('openai:text-embedding-3-small', { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` } });
    expect(embedder.model).toBe('openai:text-embedding-3-small');
    expect(embedder.maxBatch).toBe(128);
    expect(await embedder.embed(['Doc leases\n\nA lease expires.', 'heartbeat'])).toEqual(OPENAI_VECTORS);
    const [request] = server.requests();
    expect(`${request!.method} ${request!.path}`).toBe('POST /v1/embeddings');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body).toEqual({ model: 'text-embedding-3-small', input: ['Doc leases\n\nA lease expires.', 'heartbeat'], encoding_format: 'float' });
    server.assertScriptConsumed();
  });

  it('openai: retries a 500 (AI SDK maxRetries) and then succeeds', async () => {
    const server = await replay([serverErrorResponse(), jsonResponse(fixture('openai-embeddings.json'))]);
    const embedder = resolveEmbedder('openai:text-embedding-3-small', { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` } });
    expect(await embedder.embed(['a', 'b'])).toEqual(OPENAI_VECTORS);
    expect(server.requests()).toHaveLength(2);
    server.assertScriptConsumed();
  });

  it('aborts a call the server never answers after timeoutMs', async () => {
    const server = await replay([hangResponse()]);
    const embedder = resolveEmbedder('ollama:nomic-embed-text', { env: { OLLAMA_BASE_URL: `${server.url}/v1` }, timeoutMs: 100 });
    await expect(embedder.embed(['a'])).rejects.toThrow(/aborted/i);
    expect(server.requests()).toHaveLength(1);
  });

  it('ollama: its OpenAI-compatible /v1/embeddings, no key', async () => {
    const server = await replay([jsonResponse({ ...(fixture('openai-embeddings.json') as object), model: 'nomic-embed-text' })]);
    const embedder = resolveEmbedder('ollama:nomic-embed-text', { env: { OLLAMA_BASE_URL: `${server.url}/v1` } });
    expect(await embedder.embed(['a', 'b'])).toEqual(OPENAI_VECTORS);
    const [request] = server.requests();
    expect(`${request!.method} ${request!.path}`).toBe('POST /v1/embeddings');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({ model: 'nomic-embed-text', input: ['a', 'b'], encoding_format: 'float' });
    server.assertScriptConsumed();
  });

  it('openai-compatible: the base URL of the spec, the optional key', async () => {
    const server = await replay([jsonResponse(fixture('openai-embeddings.json'))]);
    const embedder = resolveEmbedder(`openai-compatible:${server.url}/v1#bge-small-en`, { env: { OPENAI_COMPATIBLE_API_KEY: 'local-key' } });
    expect(await embedder.embed(['a', 'b'])).toEqual(OPENAI_VECTORS);
    const [request] = server.requests();
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.headers.authorization).toBe('Bearer local-key');
    expect(request!.body).toEqual({ model: 'bge-small-en', input: ['a', 'b'], encoding_format: 'float' });
    server.assertScriptConsumed();
  });

  it('names the missing key and the offline alternative', () => {
    expect(() => resolveEmbedder('openai:text-embedding-3-small', { env: {} })).toThrow(
      'Atlas: OPENAI_API_KEY is not set, needed for "openai:text-embedding-3-small". Set it, or use --embed hash:256 (offline, for plumbing checks only).',
    );
    expect(resolveEmbedder('hash:32', { env: {} }).model).toBe('hash:32');
  });
});

describe('resolveReranker over the real AI SDK client (loopback replay)', () => {
  it('cohere: POST /v2/rerank with the key, query, documents and top_n; every document back, best first', async () => {
    const server = await replay([jsonResponse(fixture('cohere-rerank.json'))]);
    const reranker = resolveReranker('cohere:rerank-v3.5', { env: { COHERE_API_KEY: 'co-test', COHERE_BASE_URL: `${server.url}/v2` } });
    expect(await reranker.rerank('lease timeout', ['Leases renew.', 'Payload limits.', 'A lease times out after 30 s.'])).toEqual([
      { index: 2, score: 0.9997 },
      { index: 0, score: 0.1234 },
      { index: 1, score: 0.0012 },
    ]);
    const [request] = server.requests();
    expect(`${request!.method} ${request!.path}`).toBe('POST /v2/rerank');
    expect(request!.headers.authorization).toBe('Bearer co-test');
    expect(request!.body).toEqual({
      model: 'rerank-v3.5',
      query: 'lease timeout',
      documents: ['Leases renew.', 'Payload limits.', 'A lease times out after 30 s.'],
      top_n: 3,
    });
    server.assertScriptConsumed();
  });

  it('togetherai: POST /v1/rerank with the key, query, documents, top_n and return_documents false', async () => {
    const server = await replay([jsonResponse(fixture('togetherai-rerank.json'))]);
    const reranker = resolveReranker('togetherai:Salesforce/Llama-Rank-v1', { env: { TOGETHER_API_KEY: 'tg-test', TOGETHER_BASE_URL: `${server.url}/v1` } });
    expect(await reranker.rerank('lease timeout', ['Leases renew.', 'A lease times out after 30 s.'])).toEqual([
      { index: 1, score: 0.9823 },
      { index: 0, score: 0.0411 },
    ]);
    const [request] = server.requests();
    expect(`${request!.method} ${request!.path}`).toBe('POST /v1/rerank');
    expect(request!.headers.authorization).toBe('Bearer tg-test');
    expect(request!.body).toEqual({
      model: 'Salesforce/Llama-Rank-v1',
      query: 'lease timeout',
      documents: ['Leases renew.', 'A lease times out after 30 s.'],
      top_n: 2,
      return_documents: false,
    });
    server.assertScriptConsumed();
  });

  it('names the missing key', () => {
    expect(() => resolveReranker('cohere:rerank-v3.5', { env: {} })).toThrow('Atlas: COHERE_API_KEY is not set, needed for "cohere:rerank-v3.5". Set it, or use no --rerank.');
  });
});
