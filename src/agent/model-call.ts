import {
  generateText,
  NoObjectGeneratedError,
  Output,
  ToolChoiceViolationError,
  type LanguageModel,
  type ModelMessage,
  type TelemetrySettings,
  type ToolSet,
} from 'ai';
import type { z } from 'zod';
import { answerExtrasSchema, modelAnswerSchema, type ModelAnswer } from './trust/answer.ts';
import { agentTools, precomputedSchema } from './session/tools.ts';
import { webActivityOf } from './web/web-activity.ts';
import type { WebActivity } from './web/web.ts';

const answerOutput = Output.object({ schema: precomputedSchema(modelAnswerSchema) });

/** Tool choice of one model call, as the AI SDK spells it. */
export type ToolChoice = 'required' | 'auto' | 'none';

/** One tool call the model asked for (possibly with unparseable input or an unknown name). */
export interface RequestedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Why the AI SDK could not parse the call, when it could not. */
  invalidReason?: string;
}

/** Token counts of one call; `known` is false when the provider did not report them (counted as 0). */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  known: boolean;
}

/** The outcome of one model call: tool calls, an answer, malformed output, or a failure. */
export type ModelCallOutcome =
  | { kind: 'tool-calls'; toolCalls: RequestedToolCall[]; assistant: ModelMessage[]; usage: CallUsage; web?: WebActivity }
  | { kind: 'answer'; answer: ModelAnswer; usage: CallUsage; web?: WebActivity }
  | { kind: 'malformed'; text: string; reason: string; usage: CallUsage; web?: WebActivity }
  | { kind: 'failed'; reason: string; usage: CallUsage; timedOut?: boolean };

export interface ModelCallOptions {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  toolChoice: ToolChoice;
  /** The run's tools (default {@link agentTools}; `createAgentTools` adds model labels to search_docs). */
  tools?: ToolSet;
  /** Aborts the call (including retries) after this many ms; the outcome is then `failed` with `timedOut`. */
  timeoutMs?: number;
  /** Makes the signal that aborts after `timeoutMs` (default `AbortSignal.timeout`); tests inject their own. */
  timeoutSignal?: (ms: number) => AbortSignal;
  maxRetries?: number;
  /** The caller's own abort (a closed connection, Ctrl-C). */
  abortSignal?: AbortSignal;
  /** The answer schema (default {@link modelAnswerSchema}; runs with the web use `webAnswerSchema`). */
  answerSchema?: z.ZodType<ModelAnswer>;
  /** The AI SDK's telemetry of the call (its spans, docs/observability.md); absent: off. */
  telemetry?: TelemetrySettings;
}

const NO_USAGE: CallUsage = { inputTokens: 0, outputTokens: 0, known: true };

/**
 * Makes one model call with the agent's tools and the Answer schema as the JSON response
 * format, and classifies what came back. Never throws for provider or model faults: they are
 * values the loop records in the trace.
 *
 * @example
 * const outcome = await callModel({ model, system, messages, toolChoice: 'required' });
 */
export async function callModel(options: ModelCallOptions): Promise<ModelCallOutcome> {
  const timeout = options.timeoutMs === undefined ? undefined : (options.timeoutSignal ?? AbortSignal.timeout)(Math.max(1, Math.ceil(options.timeoutMs)));
  const signals = [timeout, options.abortSignal].filter((signal): signal is AbortSignal => signal !== undefined);
  try {
    // One signal covers the whole call, the AI SDK's retries included.
    timeout?.throwIfAborted();
    const result = await generateText({
      model: options.model,
      system: options.system,
      messages: options.messages,
      tools: options.tools ?? agentTools,
      toolChoice: options.toolChoice,
      output: options.answerSchema ? Output.object({ schema: precomputedSchema(options.answerSchema) }) : answerOutput,
      maxRetries: options.maxRetries ?? 2,
      ...(options.telemetry ? { experimental_telemetry: options.telemetry } : {}),
      ...(signals.length === 0 ? {} : { abortSignal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
    });
    const usage = toCallUsage(result.usage);
    // Provider-executed calls (web search) ran at the provider: the loop answers only its own tools.
    const web = webActivityOf(result);
    const ownCalls = result.toolCalls.filter((call) => !(call as { providerExecuted?: boolean }).providerExecuted);
    if (ownCalls.length > 0) {
      const toolCalls = ownCalls.map((call): RequestedToolCall => {
        const invalid = call as { invalid?: boolean; error?: unknown };
        return {
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          ...(invalid.invalid ? { invalidReason: errorText(invalid.error) } : {}),
        };
      });
      const assistant = result.response.messages.filter((message) => message.role === 'assistant');
      return { kind: 'tool-calls', toolCalls, assistant, usage, ...web };
    }
    const parsed = (options.answerSchema ?? modelAnswerSchema).safeParse(result.output);
    if (parsed.success) return { kind: 'answer', answer: { ...parsed.data, ...answerExtras(result.text) }, usage, ...web };
    return { kind: 'malformed', text: result.text, reason: 'the reply did not match the answer schema', usage, ...web };
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      return {
        kind: 'malformed',
        text: error.text ?? '',
        reason: `the reply was not a valid answer object (${firstLine(errorText(error.cause ?? error))})`,
        usage: toCallUsage(error.usage),
      };
    }
    if (ToolChoiceViolationError.isInstance(error)) {
      return { kind: 'malformed', text: '', reason: `the model violated tool choice "${options.toolChoice}"`, usage: NO_USAGE };
    }
    if (timeout?.aborted && options.timeoutMs !== undefined) {
      return { kind: 'failed', reason: `model call timed out after ${secondsText(options.timeoutMs)}`, usage: NO_USAGE, timedOut: true };
    }
    return { kind: 'failed', reason: `model call failed: ${firstLine(errorText(error))}`, usage: NO_USAGE };
  }
}

function toCallUsage(usage: { inputTokens?: number; outputTokens?: number } | undefined): CallUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    known: usage?.inputTokens !== undefined && usage?.outputTokens !== undefined,
  };
}

/** The message of an error followed by its causes (a retry's last error, `cause` chains), so the trace names the root cause. */
function errorText(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    const code = (current as { code?: unknown }).code;
    const text = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
    if (!messages.some((existing) => existing.includes(text))) messages.push(text);
    const next = (current as { lastError?: unknown; cause?: unknown });
    current = next.lastError ?? next.cause;
  }
  return messages.join(': ');
}

/**
 * A duration in ms as seconds for messages: `60000` -> `"60 s"`, `50` -> `"0.05 s"`.
 *
 * @example
 * secondsText(1500); // '1.5 s'
 */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/** The extras a reply's answer object carries beyond the schema (closest passages, abstain reason); none when absent or malformed. */
function answerExtras(text: string): Pick<ModelAnswer, 'closest' | 'abstain_reason'> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = answerExtrasSchema.safeParse(raw);
  if (!parsed.success) return {};
  return { ...(parsed.data.closest ? { closest: parsed.data.closest } : {}), ...(parsed.data.abstain_reason ? { abstain_reason: parsed.data.abstain_reason } : {}) };
}
