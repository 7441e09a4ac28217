import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { estimateTokens } from './session/section-page.ts';

/**
 * Builds an AI SDK `LanguageModelV3` for an in-process model (the offline planner, scripted test
 * models) from a function that returns the content of one turn. Usage is estimated from the
 * prompt and content unless `inputTokens` says otherwise; `doStream` replays the same turn.
 *
 * @example
 * const model = inProcessModel({ provider: 'atlas', modelId: 'offline' }, (call) => [{ type: 'text', text: '{}' }]);
 */
export function inProcessModel(
  identity: { provider: string; modelId: string },
  respond: (call: LanguageModelV3CallOptions) => LanguageModelV3Content[],
  options: { inputTokens?: (call: LanguageModelV3CallOptions) => number } = {},
): LanguageModelV3 {
  const generate = async (call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    const content = respond(call);
    const inputTokens = options.inputTokens?.(call) ?? estimateTokens(JSON.stringify(call.prompt));
    return {
      content,
      finishReason: { unified: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: estimateTokens(JSON.stringify(content)), text: undefined, reasoning: undefined },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: 'v3',
    ...identity,
    supportedUrls: {},
    doGenerate: generate,
    async doStream(call) {
      return { stream: streamOf(await generate(call)) };
    },
  };
}

function streamOf(result: LanguageModelV3GenerateResult): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const [index, part] of result.content.entries()) {
    if (part.type === 'text') {
      const id = `text-${index}`;
      parts.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: part.text }, { type: 'text-end', id });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
