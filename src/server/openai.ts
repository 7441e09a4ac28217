// The OpenAI-compatible face of `atlas serve`: POST /v1/chat/completions (streamed or not) and
// GET /v1/models, so the official `openai` client or a chat UI can use Atlas as a model.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { ConversationTurn } from '../agent/history.ts';
import { routedAsk, type Route, type RoutedAskOptions } from '../agent/route.ts';
import type { RunEvent } from '../agent/events.ts';
import type { AgentRun } from '../agent/run-types.ts';
import { AtlasError } from '../errors.ts';
import type { Principal, SearchFilter } from '../index/types.ts';
import { answerContent, chunkOf, completionOf, contentDeltas, extensionOf, usageChunkOf, type CompletionIdentity } from './openai-format.ts';
import { ATLAS_MODEL_ID, narrowFilter, parseChatRequest, type ChatRequest, type ChatRequestProblem } from './openai-request.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

/** Options of {@link createOpenAiApp}; everything that touches the outside is injectable. */
export interface OpenAiAppOptions {
  /** Makes the id part of `chatcmpl-<id>` (default `crypto.randomUUID`). */
  createId?: () => string;
  /** Wall clock in ms for `created` (default `Date.now`); `deps.now` times the runs. */
  wallClock?: () => number;
  /** Route of a request that names none in `atlas.route` (default `agentic`, as `atlas ask`). */
  route?: Route;
  /** Receives errors that are not Atlas's own (bugs), which the client sees only as an internal error (default `console.error`). */
  logError?: (error: unknown) => void;
}

/**
 * The OpenAI-compatible routes as a Hono sub-app, to be mounted at the root of the server app
 * (`app.route('/', createOpenAiApp(deps))`). The principal is read from `c.get('principal')` (the
 * auth middleware's), never from the body; errors have OpenAI's shape
 * `{ error: { message, type, code, param } }`.
 *
 * @example
 * const app = new Hono<ServerEnv>().route('/', createOpenAiApp(deps));
 * const client = new OpenAI({ baseURL: 'http://127.0.0.1:8787/v1', apiKey: process.env.ATLAS_TOKEN ?? 'none' });
 * const completion = await client.chat.completions.create({ model: 'atlas', messages: [{ role: 'user', content: 'What is ORB-1202?' }] });
 */
export function createOpenAiApp(deps: ServerDeps, options: OpenAiAppOptions = {}): Hono<ServerEnv> {
  const createId = options.createId ?? randomUUID;
  const wallClock = options.wallClock ?? Date.now;
  const logError = options.logError ?? ((error: unknown) => console.error(error));
  const app = new Hono<ServerEnv>();

  app.get('/v1/models', (c) =>
    c.json({ object: 'list', data: [{ id: ATLAS_MODEL_ID, object: 'model', created: 0, owned_by: 'atlas', atlas: { modelSpec: deps.modelSpec } }] }),
  );
  app.get(`/v1/models/${ATLAS_MODEL_ID}`, (c) => c.json({ id: ATLAS_MODEL_ID, object: 'model', created: 0, owned_by: 'atlas', atlas: { modelSpec: deps.modelSpec } }));

  app.post('/v1/chat/completions', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return openAiError(c, { status: 400, code: 'invalid_json', param: null, message: 'Atlas: the chat completion body is not valid JSON. Send a JSON object with "model" and "messages".' });
    }
    const parsed = parseChatRequest(body);
    if (!parsed.ok) return openAiError(c, parsed.problem);
    const narrowed = narrowFilter(deps.filter, parsed.request);
    if (!narrowed.ok) return openAiError(c, narrowed.problem);
    const identity: CompletionIdentity = { id: `chatcmpl-${createId()}`, created: Math.floor(wallClock() / 1000) };
    const ask = (onEvent: ((event: RunEvent) => void) | undefined, abortSignal: AbortSignal) =>
      routedAsk(parsed.request.question, runOptions(deps, parsed.request, { filter: narrowed.filter, principal: c.get('principal'), abortSignal, onEvent, route: options.route }));
    if (parsed.request.stream) return streamCompletion(ask, identity, parsed.request, { requestSignal: c.req.raw.signal, logError });
    try {
      const run = await ask(undefined, c.req.raw.signal);
      const failure = runFailure(run);
      if (failure !== undefined) return openAiError(c, { status: 502, code: 'run_failed', param: null, message: failure });
      return c.json(completionOf(run, identity));
    } catch (error) {
      return openAiError(c, internalProblem(error, logError));
    }
  });
  return app;
}

type Ask = (onEvent: ((event: RunEvent) => void) | undefined, abortSignal: AbortSignal) => Promise<AgentRun>;

/** The run options of a chat request; `history` is passed for the runs that read it (conversations). */
function runOptions(
  deps: ServerDeps,
  request: ChatRequest,
  context: { filter: SearchFilter | undefined; principal: Principal | undefined; abortSignal: AbortSignal; onEvent?: (event: RunEvent) => void; route?: Route },
): RoutedAskOptions {
  const options: RoutedAskOptions & { history?: ConversationTurn[] } = {
    model: deps.model,
    index: deps.index,
    price: deps.price,
    now: deps.now,
    route: request.route ?? context.route ?? 'agentic',
    abortSignal: context.abortSignal,
    ...deps.limits,
    ...(request.maxSearches ?? deps.maxSearches ? { maxSearches: request.maxSearches ?? deps.maxSearches } : {}),
    ...(context.filter ? { filter: context.filter } : {}),
    ...(context.principal ? { principal: context.principal } : {}),
    ...(deps.policy ? { policy: deps.policy, policyStrict: deps.policyStrict ?? false } : {}),
    ...(context.onEvent ? { onEvent: context.onEvent } : {}),
    ...(request.history.length > 0 ? { history: request.history } : {}),
  };
  return options;
}

/**
 * The streamed completion as server-sent events: a role delta first, one chunk per run event
 * (empty delta, the event in `atlas.event`) while the run works, the content in deltas, a final
 * chunk with `finish_reason: "stop"` and the extension, the usage chunk when asked, then
 * `data: [DONE]`. A client that disconnects aborts the run.
 */
function streamCompletion(ask: Ask, identity: CompletionIdentity, request: ChatRequest, context: { requestSignal: AbortSignal; logError: (error: unknown) => void }): Response {
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
      send(chunkOf(identity, { role: 'assistant', content: '' }));
      try {
        const run = await ask((event) => send(chunkOf(identity, {}, { atlas: { event } })), abort.signal);
        const failure = runFailure(run);
        if (failure !== undefined) send({ error: { message: failure, type: 'server_error', code: 'run_failed', param: null } });
        else {
          for (const delta of contentDeltas(answerContent(run.answer))) send(chunkOf(identity, { content: delta }));
          send(chunkOf(identity, {}, { finishReason: 'stop', atlas: extensionOf(run) }));
          if (request.includeUsage) send(usageChunkOf(identity, run.usage));
        }
      } catch (error) {
        const problem = internalProblem(error, context.logError);
        send({ error: { message: problem.message, type: errorType(problem.status), code: problem.code, param: null } });
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

/** The error message of a run that ended without an answer because the model failed; undefined for any other run. */
function runFailure(run: AgentRun): string | undefined {
  const { stopReason, errors } = run.trace;
  if (stopReason !== 'error' && stopReason !== 'timeout' && stopReason !== 'deadline') return undefined;
  const cause = (errors.at(-1) ?? 'unknown error').replace(/\.$/, '');
  return `Atlas: the run failed (stop: ${stopReason}): ${cause}. Ask again; if it persists, check the server's model and its limits.`;
}

/** An error thrown by a run as a problem: Atlas's usage errors are the client's, others the server's (bugs are logged, never shown). */
function internalProblem(error: unknown, logError: (error: unknown) => void): ChatRequestProblem {
  if (error instanceof AtlasError && error.code === 'usage') return { status: 400, code: 'invalid_request', param: null, message: error.message };
  if (error instanceof AtlasError) return { status: 500, code: error.code, param: null, message: error.message };
  logError(error);
  return { status: 500, code: 'internal', param: null, message: 'Atlas: the run failed with an internal error; the server log has the details.' };
}

function errorType(status: number): string {
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

function openAiError(c: Context<ServerEnv>, problem: ChatRequestProblem) {
  return c.json({ error: { message: problem.message, type: errorType(problem.status), code: problem.code, param: problem.param } }, problem.status);
}
