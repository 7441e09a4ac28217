// For clients of `atlas serve` that use the AI SDK: the verified citations of a chat completion
// in the result's `providerMetadata.atlas`, read from the `atlas` extension of the reply.
import type { MetadataExtractor } from '@ai-sdk/openai-compatible';
import type { JSONValue, SharedV3ProviderMetadata } from '@ai-sdk/provider';

/** The fields of the `atlas` extension (openai-format.ts) that go into `providerMetadata.atlas`. */
const PASSED_ON = ['question', 'abstained', 'citations', 'closest', 'route', 'notes'] as const;

/**
 * The AI SDK's OpenAI-compatible provider puts in `providerMetadata` only what a
 * `metadataExtractor` returns (and prediction token counts); this one returns the run's
 * `question`, `abstained`, `citations` (numbered as the `[n]` markers of the text), `closest`,
 * `route` and `notes` under `atlas`, for `generateText` and `streamText` alike (a stream carries
 * them on its final chunk). The trace and usage stay in the raw response (`response.body.atlas`).
 *
 * @example
 * const atlas = createOpenAICompatible({ name: 'atlas', baseURL: 'http://127.0.0.1:8787/v1', apiKey: token, metadataExtractor: atlasMetadataExtractor });
 * const result = await generateText({ model: atlas.chatModel('atlas'), prompt: 'What does ORB-1202 mean?' });
 * result.providerMetadata?.atlas?.citations; // [{ docId: 'error-codes', chunkId: 'error-codes#4', quote: '...', ... }]
 */
export const atlasMetadataExtractor: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => metadataOf(finalExtension(parsedBody)),
  createStreamExtractor: () => {
    let extension: Record<string, unknown> | undefined;
    return {
      processChunk: (chunk) => {
        extension = finalExtension(chunk) ?? extension;
      },
      buildMetadata: () => metadataOf(extension),
    };
  },
};

/** The `atlas` field of a completion or chunk when it is a finished run's (not a run event's). */
function finalExtension(body: unknown): Record<string, unknown> | undefined {
  const atlas = typeof body === 'object' && body !== null ? (body as { atlas?: unknown }).atlas : undefined;
  return typeof atlas === 'object' && atlas !== null && 'citations' in atlas ? (atlas as Record<string, unknown>) : undefined;
}

function metadataOf(extension: Record<string, unknown> | undefined): SharedV3ProviderMetadata | undefined {
  if (extension === undefined) return undefined;
  const passed = PASSED_ON.filter((name) => extension[name] !== undefined).map((name) => [name, extension[name] as JSONValue]);
  return { atlas: Object.fromEntries(passed) as Record<string, JSONValue> };
}
