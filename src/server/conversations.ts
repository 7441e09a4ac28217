// The conversation routes of `atlas serve`: a Hono sub-app the server mounts (app.route('/', conversationsApp(deps, store))).
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ROUTES, type Route } from '../agent/policy/route.ts';
import { askInConversation, type ConversationAskOptions, type ConversationReply } from '../conversations/ask.ts';
import type { ConversationStore } from '../conversations/store.ts';
import { narrowConversationFilter } from '../conversations/turn-filter.ts';
import { AtlasError } from '../errors.ts';
import { failureText } from '../stack-trace.ts';
import { prepareAsk } from './ask.ts';
import { requestUser as userOf } from './auth.ts';
import { ApiError } from './http.ts';
import { DEFAULT_KEEP_ALIVE_MS, streamRun } from './run-stream.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

const createBody = z.strictObject({
  version: z.string().trim().min(1).optional(),
});
const messageBody = z.strictObject({
  content: z.string().trim().min(1, 'content must be a non-empty question'),
  route: z.enum(ROUTES as [string, ...string[]]).optional(),
});
type MessageBody = z.infer<typeof messageBody>;

/**
 * The conversation routes, reading the principal the auth middleware set (`c.get('principal')`):
 *
 * - `POST /v1/conversations` `{ version? }` -> `201 { id }`: a new conversation of this principal,
 *   searching with the server's filter (narrowed to `version` when given).
 * - `POST /v1/conversations/:id/messages` `{ content, route? }` -> the AgentRun JSON of the turn
 *   plus `conversationId` and `turn` (null when the model failed: such a run is not stored): the run sees the earlier turns and the conversation's
 *   search memory (docs/conversations.md).
 * - `POST /v1/conversations/:id/messages/stream` `{ content, route? }` -> `text/event-stream` of
 *   the turn's run events, exactly as `/v1/ask/stream` sends them, then `event: run` with the JSON
 *   of the non-streamed route. A client that goes away aborts the run, and no turn is stored.
 *   A quiet stream gets a `: keep-alive` comment every `options.keepAliveMs` (default 15 s; 0: never).
 * - `GET /v1/conversations/:id` -> `{ id, createdAt, filter, turns }` (`filter`: what its turns
 *   search with now, the filter it was created with narrowed by the server's).
 *
 * The server's filter as it is now always narrows a stored conversation's (a restart with a
 * narrower `--version` or `--label` wins); a turn's JSON says in `notes` what that left out.
 *
 * An unknown id and another principal's conversation are the same `404`; a bad body is `400`;
 * errors are `{ error: { code, message } }`, never a stack.
 *
 * @example
 * app.route('/', conversationsApp(deps, openConversationStore({ path: stateDbPath(dbPath) })));
 * await app.request('/v1/conversations', { method: 'POST' }); // 201 { id: '…' }
 */
export function conversationsApp(deps: ServerDeps, store: ConversationStore, options: { keepAliveMs?: number } = {}): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();

  app.post('/v1/conversations', async (c) => {
    const body = await readBody(c, createBody);
    if (!body.ok) return body.response;
    const fixed = deps.filter?.version;
    const version = body.value.version;
    if (fixed !== undefined && version !== undefined && version !== fixed) {
      return fail(c, 400, 'invalid-request', `version "${version}" is outside this server's version ${fixed}: leave version out, or pass "${fixed}".`);
    }
    const filter = { ...deps.filter, ...(version === undefined ? {} : { version }) };
    const conversation = await store.create({ principal: c.get('principal'), ...userOf(c), filter });
    return c.json({ id: conversation.id }, 201);
  });

  app.post('/v1/conversations/:id/messages', async (c) => {
    const body = await readBody(c, messageBody);
    if (!body.ok) return body.response;
    const id = c.req.param('id');
    try {
      const reply = await askInConversation(store, id, body.value.content, c.get('principal'), { ...(await turnOptions(deps, body.value, c.req.raw.signal)), ...userOf(c) });
      if (!reply) return notFound(c, id);
      return c.json(replyJson(reply));
    } catch (error) {
      const failure = turnFailure(error, `POST ${c.req.path}`, deps.log);
      return fail(c, failure.status, failure.apiCode, failure.message);
    }
  });

  app.post('/v1/conversations/:id/messages/stream', async (c) => {
    // A bad body and an unknown (or another principal's) conversation are plain JSON errors: the stream starts only for a turn that can run.
    const body = await readBody(c, messageBody);
    if (!body.ok) return body.response;
    const id = c.req.param('id');
    const principal = c.get('principal');
    if (!(await store.get(id, principal, userOf(c).user))) return notFound(c, id);
    return streamRun(c, {
      run: async (onEvent, abortSignal) => {
        let reply: ConversationReply | undefined;
        try {
          reply = await askInConversation(store, id, body.value.content, principal, { ...(await turnOptions(deps, body.value, abortSignal)), onEvent, ...userOf(c) });
        } catch (error) {
          throw turnFailure(error, `POST ${c.req.path}`, deps.log);
        }
        if (!reply) throw new ApiError(404, 'not-found', notFoundMessage(id));
        return replyJson(reply);
      },
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      subject: `POST ${c.req.path}`,
      log: deps.log ?? (() => {}),
    });
  });

  app.get('/v1/conversations/:id', async (c) => {
    const id = c.req.param('id');
    const conversation = await store.get(id, c.get('principal'), userOf(c).user);
    if (!conversation) return notFound(c, id);
    const { groups: _groups, owner: _owner, ...shown } = conversation;
    // The filter its turns search with now: the one it was created with, narrowed by the server's.
    return c.json({ ...shown, filter: narrowConversationFilter(conversation.filter, deps.filter).filter });
  });

  return app;
}

/**
 * The routedAsk options of a turn: those of `/v1/ask` (`prepareAsk`: the server's model, yielding
 * so a stream flushes between calls, its route, first turn, budget, limits, policy and model
 * labels), with the body's route; the conversation fixes the filter and the principal.
 */
async function turnOptions(deps: ServerDeps, body: MessageBody, abortSignal: AbortSignal): Promise<ConversationAskOptions> {
  const { options } = await prepareAsk(deps, { question: body.content, ...(body.route ? { route: body.route as Route } : {}) }, undefined);
  const { filter: _filter, principal: _principal, ...rest } = options;
  // The server's filter as it is now narrows the one the conversation was created with (a restart with a narrower --version or --label wins).
  return { ...rest, abortSignal, ...(deps.filter ? { currentFilter: deps.filter } : {}) };
}

/**
 * The JSON of a turn: the AgentRun plus `conversationId`, `turn` (null for a failed run, which is
 * not stored) and `notes` (what the server's filter narrowed of the conversation's).
 */
function replyJson(reply: ConversationReply): Record<string, unknown> {
  return { conversationId: reply.conversationId, turn: reply.turn?.turn ?? null, ...reply.run, notes: reply.notes };
}

/**
 * What a turn that threw is answered with: a bad option is a 400; anything else is a 500 that
 * leaves the conversation unchanged and says nothing of its internals (`log` gets the stack).
 */
function turnFailure(error: unknown, subject: string, log: ((line: string) => void) | undefined): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AtlasError && error.code === 'usage') return new ApiError(400, 'invalid-request', error.message);
  log?.(`atlas serve: ${subject}: unexpected failure: ${failureText(error)}`);
  return new ApiError(500, 'internal', 'the turn failed inside Atlas; the conversation is unchanged. Try again, or report it with the server log.');
}

function notFoundMessage(id: string): string {
  return `no conversation "${id}": create one with POST /v1/conversations and use the id it returns.`;
}

function notFound(c: Context<ServerEnv>, id: string): Response {
  return fail(c, 404, 'not-found', notFoundMessage(id));
}

function fail(c: Context<ServerEnv>, status: ContentfulStatusCode, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status);
}

/** The JSON body checked against `schema`; an empty body is `{}`; anything else bad is a 400 naming the field. */
async function readBody<T>(c: Context<ServerEnv>, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, response: fail(c, 400, 'invalid-request', 'the request body is not JSON: send e.g. {"content": "How do I deploy?"}.') };
    }
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  return { ok: false, response: fail(c, 400, 'invalid-request', `${field}: ${issue?.message ?? 'invalid'}.`) };
}
