import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { inProcessModel } from '../agent/model-result.ts';

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
  const respond = (request: LanguageModelV3CallOptions): LanguageModelV3Content[] => {
    requests.push(request);
    let turn = turns[requests.length - 1];
    if (turn === undefined) {
      throw new Error(`scripted model: unexpected call ${requests.length} (only ${turns.length} turns scripted)`);
    }
    while (typeof turn === 'function') turn = turn(request);
    return contentOf(turn, requests.length);
  };
  return Object.assign(inProcessModel({ provider: 'scripted', modelId: 'scripted' }, respond, options), { requests });
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
