import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

/** One canned model turn. */
export type ScriptedTurn =
  | { toolCalls: Array<{ toolName: string; input: unknown; toolCallId?: string }> }
  | { answer: { text: string; citations: Array<{ doc_id: string; quote: string }>; abstained?: boolean } }
  | { text: string }
  | ((request: LanguageModelV3CallOptions) => ScriptedTurn);

/** A scripted model with the requests it received. */
export interface ScriptedModel extends LanguageModelV3 {
  /** Every request, in order (prompt, tools, toolChoice, responseFormat). */
  readonly requests: LanguageModelV3CallOptions[];
}

/**
 * A fake AI SDK model that replays `turns` in order and records every request. An unexpected
 * extra call throws, so a test fails when the loop calls the model more often than scripted.
 * Tool inputs given as strings are sent verbatim (to script malformed JSON).
 *
 * @example
 * const model = createScriptedModel([
 *   { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202' } }] },
 *   { answer: { text: 'It is PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: '...' }] } },
 * ]);
 */
export function createScriptedModel(turns: ScriptedTurn[], options: { inputTokens?: (request: LanguageModelV3CallOptions) => number } = {}): ScriptedModel {
  const requests: LanguageModelV3CallOptions[] = [];
  const generate = async (request: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    requests.push(request);
    let turn = turns[requests.length - 1];
    if (turn === undefined) {
      throw new Error(`scripted model: unexpected call ${requests.length} (only ${turns.length} turns scripted)`);
    }
    while (typeof turn === 'function') turn = turn(request);
    const content = contentOf(turn, requests.length);
    const inputTokens = options.inputTokens?.(request) ?? approximateTokens(JSON.stringify(request.prompt));
    return {
      content,
      finishReason: { unified: 'toolCalls' in turn ? 'tool-calls' : 'stop', raw: undefined },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: approximateTokens(JSON.stringify(content)), text: undefined, reasoning: undefined },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    requests,
    doGenerate: generate,
    async doStream(request) {
      const result = await generate(request);
      return { stream: streamOf(result) };
    },
  };
}

/** A rough token count (4 characters a token), used when a script gives none. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function contentOf(turn: Exclude<ScriptedTurn, (...args: never[]) => unknown>, callNumber: number): LanguageModelV3Content[] {
  if ('toolCalls' in turn) {
    return turn.toolCalls.map((call, index) => ({
      type: 'tool-call',
      toolCallId: call.toolCallId ?? `call-${callNumber}-${index + 1}`,
      toolName: call.toolName,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    }));
  }
  if ('answer' in turn) {
    return [{ type: 'text', text: JSON.stringify({ abstained: false, ...turn.answer }) }];
  }
  return [{ type: 'text', text: turn.text }];
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
