// The real AI SDK OpenAI-compatible client against the app on loopback: with Atlas's metadata
// extractor, the run's citations arrive in providerMetadata.atlas, streamed or not.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { atlasMetadataExtractor } from './ai-sdk-metadata.ts';
import { createApp } from './app.ts';
import { listenOnLoopback, type ListeningApp } from './test-listen.ts';
import { testDeps } from './test-server.ts';

let index: IndexBackend;
let server: ListeningApp;
beforeAll(async () => {
  index = await createOrbitIndex();
  server = await listenOnLoopback(createApp(testDeps(index)));
});
afterAll(async () => {
  await server.close();
  await index.close();
});

const QUESTION = 'What does ORB-1202 mean?';
const provider = (withExtractor: boolean) =>
  createOpenAICompatible({ name: 'atlas', baseURL: `${server.url}/v1`, apiKey: 'unused', ...(withExtractor ? { metadataExtractor: atlasMetadataExtractor } : {}) });

describe('citations in providerMetadata for AI SDK clients', () => {
  it('generateText: providerMetadata.atlas has the citations of the reply, numbered as its markers', async () => {
    const result = await generateText({ model: provider(true).chatModel('atlas'), prompt: QUESTION, maxRetries: 0 });
    const sent = (result.response.body as { atlas: { citations: Array<{ chunkId: string }>; abstained: boolean; notes: string[] } }).atlas;
    expect(sent.citations.length).toBeGreaterThan(0);
    expect(sent.citations[0]!.chunkId).toBe('error-codes#4');
    expect(result.text).toContain('[1]');
    expect(result.providerMetadata).toEqual({ atlas: { question: QUESTION, abstained: false, citations: sent.citations, notes: sent.notes, route: 'agentic' } });
  });

  it('streamText: the same metadata from the final chunk; without the extractor the AI SDK passes none', async () => {
    const streamed = streamText({ model: provider(true).chatModel('atlas'), prompt: QUESTION, maxRetries: 0 });
    const text = await streamed.text;
    const metadata = (await streamed.providerMetadata) as { atlas: { citations: Array<{ chunkId: string }>; abstained: boolean; question: string } };
    expect([metadata.atlas.question, metadata.atlas.abstained, metadata.atlas.citations[0]!.chunkId]).toEqual([QUESTION, false, 'error-codes#4']);
    expect(text).toContain('[1]');
    const plain = await generateText({ model: provider(false).chatModel('atlas'), prompt: QUESTION, maxRetries: 0 });
    expect(plain.providerMetadata).toEqual({ atlas: {} });
  });
});
