// The OpenAI-compatible face of `atlas serve`: POST /v1/chat/completions (streamed or not) and
// GET /v1/models, so the official `openai` client or a chat UI can use Atlas as a model.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { routedAsk, type RoutedAskOptions } from '../agent/policy/route.ts';
import type { RunEvent } from '../agent/events.ts';
import type { AgentRun } from '../agent/run-types.ts';
import { AtlasError } from '../errors.ts';
import { prepareAsk, type PreparedAsk } from './ask.ts';
import { errorReply } from './http.ts';
import { answerContent, chunkOf, completionOf, contentDeltas, extensionOf, usageChunkOf, type CompletionIdentity } from './openai-format.ts';
import { ATLAS_MODEL_ID, parseChatRequest, type ChatRequestProblem } from './openai-request.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

/** Options of {@link createOpenAiApp}; everything that touches the outside is injectable. */
export interface OpenAiAppOptions {
  /** Makes the id part of `chatcmpl-<id>` (default `crypto.randomUUID`). */
  createId?: () => string;
  /** Wall clock in ms for `created` (default `Date.now`); `deps.now` times the runs. */
  wallClock?: () => number;
}

/**
 * The OpenAI-compatible routes as a Hono sub-app; `createApp` mounts it beside the other routes,
 * behind the same auth and limits. A chat
 * completion is the ask of POST /v1/ask (`prepareAsk`: the server's filter narrowed by the
 * `atlas` extension, the token's principal, the server's route and budgets) with the earlier
 * messages as `history`. Errors have OpenAI's shape `{ error: { message, type, code, param } }`.
 *
 * @example
 * const app = new Hono<ServerEnv>().route('/', createOpenAiApp(deps)); // createApp(deps) already has it
 * const client = new OpenAI({ baseURL: 'http://127.0.0.1:8787/v1', apiKey: process.env.ATLAS_TOKEN ?? 'none' });
 * const completion = await client.chat.completions.create({ model: 'atlas', messages: [{ role: 'user', content: 'What is ORB-1202?' }] });
 */
export function createOpenAiApp(deps: ServerDeps, options: OpenAiAppOptions = {}): Hono<ServerEnv> {
  const createId = options.createId ?? randomUUID;
  const wallClock = options.wallClock ?? Date.now;
  const log = deps.log ?? (() => {});
  const app = new Hono<ServerEnv>();
  const model = { id: ATLAS_MODEL_ID, object: 'model', created: 0, owned_by: 'atlas', atlas: { modelSpec: deps.modelSpec } };

  app.get('/v1/models', (c) => c.json({ object: 'list', data: [model] }));
  app.get(`/v1/models/${ATLAS_MODEL_ID}`, (c) => c.json(model));

  app.post('/v1/chat/completions', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return openAiError(c, { status: 400, code: 'invalid_json', param: null, message: 'Atlas: the chat completion body is not valid JSON. Send a JSON object with "model" and "messages".' });
    }
    const parsed = parseChatRequest(body);
    if (!parsed.ok) return openAiError(c, parsed.problem);
    const subject = 'POST /v1/chat/completions';
    let prepared: PreparedAsk;
    try {
      prepared = await prepareAsk(deps, parsed.request.ask, c.get('principal'));
    } catch (error) {
      return openAiError(c, problemOf(error, subject, log));
    }
    const identity: CompletionIdentity = { id: `chatcmpl-${createId()}`, created: Math.floor(wallClock() / 1000) };
    const ask: Ask = (onEvent, abortSignal) => {
      const runOptions: RoutedAskOptions = {
        ...prepared.options,
        abortSignal,
        ...(onEvent ? { onEvent } : {}),
        ...(parsed.request.history.length > 0 ? { history: parsed.request.history } : {}),
      };
      return routedAsk(prepared.question, runOptions);
    };
    if (parsed.request.stream) return streamCompletion(ask, identity, { ...parsed.request, notes: prepared.notes, requestSignal: c.req.raw.signal, problemOf: (error) => problemOf(error, subject, log) });
    try {
      const run = await ask(undefined, c.req.raw.signal);
      const failure = runFailure(run);
      if (failure !== undefined) return openAiError(c, failure);
      return c.json(completionOf(run, identity, prepared.notes));
    } catch (error) {
      return openAiError(c, problemOf(error, subject, log));
    }
  });
  return app;
}

type Ask = (onEvent: ((event: RunEvent) => void) | undefined, abortSignal: AbortSignal) => Promise<AgentRun>;

interface StreamContext {
  includeUsage: boolean;
  notes: string[];
  requestSignal: AbortSignal;
  problemOf: (error: unknown) => ChatRequestProblem;
}

/**
 * The streamed completion as server-sent events: a role delta first, one chunk per run event
 * (empty delta, the event in `atlas.event`) while the run works, the content in deltas, a final
 * chunk with `finish_reason: "stop"` and the extension, the usage chunk when asked, then
 * `data: [DONE]`. A failure after the stream started is a `data: {"error": ...}` event before
 * `[DONE]` (the openai client raises it). A client that disconnects aborts the run.
 */
function streamCompletion(ask: Ask, identity: CompletionIdentity, context: StreamContext): Response {
  const { requestSignal } = context;
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort(new AtlasError('usage', 'Atlas: the client closed the chat completion stream.'));
  requestSignal.addEventListener('abort', onRequestAbort, { once: true });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (data: unknown) => {
        if (abort.signal.aborted) return;
        controller.enqueue(encoder.encode(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`));
      };
      const sendError = (problem: ChatRequestProblem) => send({ error: { message: problem.message, type: errorType(problem.status), code: problem.code, param: problem.param } });
      send(chunkOf(identity, { role: 'assistant', content: '' }));
      try {
        const run = await ask((event) => send(chunkOf(identity, {}, { atlas: { event } })), abort.signal);
        const failure = runFailure(run);
        if (failure !== undefined) sendError(failure);
        else {
          for (const delta of contentDeltas(answerContent(run.answer))) send(chunkOf(identity, { content: delta }));
          send(chunkOf(identity, {}, { finishReason: 'stop', atlas: extensionOf(run, context.notes) }));
          if (context.includeUsage) send(usageChunkOf(identity, run.usage));
        }
      } catch (error) {
        sendError(context.problemOf(error));
      }
      send('[DONE]');
      requestSignal.removeEventListener('abort', onRequestAbort);
      if (!abort.signal.aborted) controller.close();
    },
    cancel() {
      onRequestAbort();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' } });
}

/** The problem of a run that ended without an answer because the model failed or a time limit hit (502, 504 as POST /v1/ask); undefined for any other run. */
function runFailure(run: AgentRun): ChatRequestProblem | undefined {
  const { stopReason, errors } = run.trace;
  if (stopReason !== 'error' && stopReason !== 'timeout' && stopReason !== 'deadline') return undefined;
  const cause = (errors.at(-1) ?? 'unknown error').replace(/\.$/, '');
  return {
    status: stopReason === 'error' ? 502 : 504,
    code: stopReason === 'error' ? 'model_call_failed' : 'timeout',
    param: null,
    message: `Atlas: the run ended without an answer (stop: ${stopReason}): ${cause}. Ask again; if it persists, check the server's model and its limits.`,
  };
}

/** A thrown error as the server answers it everywhere (`errorReply`: bugs logged, never shown), in OpenAI's terms. */
function problemOf(error: unknown, subject: string, log: (line: string) => void): ChatRequestProblem {
  const reply = errorReply(error, subject, log);
  return { status: reply.status, code: reply.body.error.code, param: null, message: reply.body.error.message };
}

function errorType(status: number): string {
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

function openAiError(c: Context<ServerEnv>, problem: ChatRequestProblem) {
  return c.json({ error: { message: problem.message, type: errorType(problem.status), code: problem.code, param: problem.param } }, problem.status);
}
