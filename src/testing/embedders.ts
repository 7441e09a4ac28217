import type { Embedder, RerankedItem, Reranker } from '../embed/types.ts';

export { createHashEmbedder, DEFAULT_HASH_DIMENSIONS, type HashEmbedderOptions } from '../embed/hash-embedder.ts';

/** An embedder that records every call it forwards. */
export interface RecordingEmbedder extends Embedder {
  /** The texts of each call, in order (a copy). */
  calls(): string[][];
}

/**
 * Wraps an embedder and records the texts of every `embed` call: tests assert that an ingest of
 * unchanged documents makes no call, or which texts a changed document sent.
 *
 * @example
 * const embedder = createRecordingEmbedder(createHashEmbedder({ dimensions: 64 }));
 * await index.ingest(docs);
 * embedder.calls().length; // 1
 */
export function createRecordingEmbedder(inner: Embedder, options: { maxBatch?: number } = {}): RecordingEmbedder {
  const calls: string[][] = [];
  return {
    model: inner.model,
    maxBatch: options.maxBatch ?? inner.maxBatch,
    async embed(texts, callOptions) {
      calls.push([...texts]);
      return inner.embed(texts, callOptions);
    },
    calls: () => calls.map((texts) => [...texts]),
  };
}

/** A reranker that scores documents with a function and records each call. */
export interface ScriptedReranker extends Reranker {
  /** The query and documents of each call, in order. */
  calls(): Array<{ query: string; documents: string[] }>;
}

/**
 * A deterministic {@link Reranker}: `score(query, document)` per document, best first, ties in
 * input order; every call recorded.
 *
 * @example
 * const reranker = createScriptedReranker((query, document) => (document.includes('lease') ? 1 : 0));
 */
export function createScriptedReranker(score: (query: string, document: string) => number, model = 'scripted:rerank'): ScriptedReranker {
  const calls: Array<{ query: string; documents: string[] }> = [];
  return {
    model,
    async rerank(query, documents): Promise<RerankedItem[]> {
      calls.push({ query, documents: [...documents] });
      return documents
        .map((document, index) => ({ index, score: score(query, document) }))
        .sort((a, b) => b.score - a.score || a.index - b.index);
    },
    calls: () => calls.map((call) => ({ query: call.query, documents: [...call.documents] })),
  };
}
