// The body of POST /v1/chat/completions, validated, and what a run is asked from it: the
// question (the last user message), the earlier turns, and the ask fields of the extension.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ROUTES, type Route } from '../agent/policy/route.ts';
import type { ConversationTurn } from '../agent/history.ts';
import type { AskRequest } from './ask.ts';
import { CLOSEST_HEADINGS } from '../agent/trust/abstain-text.ts';

/** The one model `/v1/models` lists and `/v1/chat/completions` accepts. */
export const ATLAS_MODEL_ID = 'atlas';

const textPart = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const contentSchema = z.union([z.string(), z.array(z.union([textPart, z.object({ type: z.string() }).passthrough()])), z.null()]);

const messageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: contentSchema.optional(),
  })
  .passthrough();

const labelValueSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/**
 * The body fields Atlas reads; `response_format` and `tool_choice` are checked (Atlas honours only
 * text and no forced tool call: anything else is refused, never silently ignored); every other
 * OpenAI field (temperature, tools, ...) is accepted and ignored.
 */
export const chatCompletionBodySchema = z
  .object({
    model: z.string(),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().nullish() }).passthrough().nullish(),
    response_format: z.unknown().optional(),
    tool_choice: z.unknown().optional(),
    /** Atlas's extension: the fields of POST /v1/ask besides the question; never who is asking. */
    atlas: z
      .object({
        version: z.string().min(1).optional(),
        labels: z.record(z.string().min(1), labelValueSchema).optional(),
        route: z.enum(ROUTES as [Route, ...Route[]]).optional(),
        maxSearches: z.number().int().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .passthrough();

/** The parsed body of a chat completion request. */
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

/** What a chat completion asks of a run: `ask` is what POST /v1/ask would be sent. */
export interface ChatRequest {
  ask: AskRequest;
  history: ConversationTurn[];
  stream: boolean;
  includeUsage: boolean;
}

/** A request the endpoint refuses: the message names the field, the value and the fix. */
export interface ChatRequestProblem {
  status: ContentfulStatusCode;
  code: string;
  param: string | null;
  message: string;
}

/**
 * Validates a chat completion body and turns its messages into a question and earlier turns:
 * the last message must be the user's and is the question; each earlier user message with the
 * assistant reply after it is one turn (the reply's "Sources:" list, its closest passages and `[n]` markers removed);
 * system and developer messages are ignored (policy and access never come from the body). Every
 * turn is passed on: the run bounds what its model sees (`historyBounds`, docs/conversations.md).
 *
 * @example
 * parseChatRequest({ model: 'atlas', messages: [{ role: 'user', content: 'What is ORB-1202?' }] });
 * // { ok: true, request: { ask: { question: 'What is ORB-1202?' }, history: [], stream: false, includeUsage: false } }
 */
export function parseChatRequest(body: unknown): { ok: true; request: ChatRequest } | { ok: false; problem: ChatRequestProblem } {
  const parsed = chatCompletionBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue === undefined ? null : issue.path.map(String).join('.');
    return {
      ok: false,
      problem: {
        status: 400,
        code: 'invalid_request',
        param,
        message: `Atlas: the chat completion body is invalid at "${param ?? ''}": ${issue?.message ?? 'unknown problem'}. Send { "model": "${ATLAS_MODEL_ID}", "messages": [{ "role": "user", "content": "..." }] }.`,
      },
    };
  }
  const data = parsed.data;
  if (data.model !== ATLAS_MODEL_ID) {
    return {
      ok: false,
      problem: { status: 404, code: 'model_not_found', param: 'model', message: `Atlas: the model "${data.model}" does not exist here; the only model is "${ATLAS_MODEL_ID}" (see GET /v1/models).` },
    };
  }
  const unsupported = unsupportedField(data);
  if (unsupported !== undefined) return { ok: false, problem: unsupported };
  const dialogue = data.messages.filter((message) => message.role === 'user' || message.role === 'assistant');
  const last = dialogue.at(-1);
  const question = last === undefined ? '' : messageText(last.content).trim();
  if (last?.role !== 'user' || question === '') {
    return {
      ok: false,
      problem: {
        status: 400,
        code: 'invalid_request',
        param: 'messages',
        message: 'Atlas: the last user or assistant message must be a user message with text: it is the question. Append { "role": "user", "content": "<your question>" }.',
      },
    };
  }
  return {
    ok: true,
    request: {
      ask: {
        question,
        ...(data.atlas?.route ? { route: data.atlas.route } : {}),
        ...(data.atlas?.maxSearches ? { maxSearches: data.atlas.maxSearches } : {}),
        ...(data.atlas?.version ? { version: data.atlas.version } : {}),
        ...(data.atlas?.labels ? { labels: Object.fromEntries(Object.entries(data.atlas.labels).map(([name, value]) => [name, [value].flat()])) } : {}),
      },
      history: turnsOf(dialogue.slice(0, -1)),
      stream: data.stream === true,
      includeUsage: data.stream_options?.include_usage === true,
    },
  };
}

type Message = ChatCompletionBody['messages'][number];

/**
 * The refusal of an OpenAI option Atlas cannot honour: a `response_format` other than text (Atlas
 * answers in text with citation markers; its citations as data are in the `atlas` field), or a
 * `tool_choice` other than "auto" or "none" (Atlas runs its own searches, never the client's tools).
 */
function unsupportedField(data: ChatCompletionBody): ChatRequestProblem | undefined {
  const format = data.response_format;
  const formatType = typeof format === 'object' && format !== null ? (format as { type?: unknown }).type : format;
  if (format !== undefined && format !== null && formatType !== 'text') {
    return {
      status: 400,
      code: 'unsupported_parameter',
      param: 'response_format',
      message: `Atlas: response_format ${shortJson(formatType)} is not supported: Atlas answers in text with [n] citation markers and a Sources list, and its citations as data are in the "atlas" field of the reply. Leave response_format out, or send { "type": "text" }.`,
    };
  }
  const choice = data.tool_choice;
  if (choice !== undefined && choice !== null && choice !== 'auto' && choice !== 'none') {
    return {
      status: 400,
      code: 'unsupported_parameter',
      param: 'tool_choice',
      message: `Atlas: tool_choice ${shortJson(choice)} is not supported: Atlas answers from its own searches and never calls the tools of a request. Leave tool_choice out, or send "auto" or "none".`,
    };
  }
  return undefined;
}

/** A value as JSON, cut to 80 characters. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

function turnsOf(messages: Message[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    if (message?.role !== 'user') continue;
    const next = messages[position + 1];
    const answer = next?.role === 'assistant' ? stripSources(messageText(next.content)) : '';
    turns.push({ question: messageText(message.content).trim(), answer, citations: [] });
  }
  return turns;
}

/** The text of a message: a string, or its text parts joined by newlines (images and other parts are left out). */
function messageText(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** An earlier reply of Atlas without its sources list (or closest passages) and citation markers. */
function stripSources(content: string): string {
  const cut = Math.max(content.lastIndexOf('\n\nSources:\n'), ...CLOSEST_HEADINGS.map((heading) => content.lastIndexOf(`\n\n${heading}:\n`)));
  const answer = cut === -1 ? content : content.slice(0, cut);
  return answer.replace(/ ?\[\d+\]/g, '').trim();
}
