// POST /v1/ask and /v1/ask/stream: one routedAsk, exactly as `atlas ask` runs it, with the
// server's filter narrowed by the request and the principal of the token.
import { Hono } from 'hono';
import { z } from 'zod';
import { ROUTES, routedAsk, type Route, type RoutedAskOptions, type RoutedRun } from '../agent/policy/route.ts';
import type { Principal } from '../index/types.ts';
import { releaseLineNotes } from '../cli/options/release-lines.ts';
import { errorBody, readJsonBody } from './http.ts';
import { narrowFilter, requestedFilterFields } from './request-filter.ts';
import { DEFAULT_KEEP_ALIVE_MS, streamRun } from './run-stream.ts';
import type { ServerDeps, ServerEnv } from './types.ts';
import { yieldingModel } from '../models/yielding-model.ts';

/** The keep-alive period of a quiet stream (15 s), defined with the stream writer in run-stream.ts. */
export { DEFAULT_KEEP_ALIVE_MS } from './run-stream.ts';

/** Search budget of an ask when neither the server nor the request names one (as `atlas ask`). */
export const DEFAULT_MAX_SEARCHES = 6;

const ASK_EXAMPLE = '{"question": "How do I set the lease duration?"}';

/** The body of POST /v1/ask and /v1/ask/stream. The principal is never in it: it comes from the token. */
export const askRequestSchema = z.strictObject(
  {
    question: z.string({ error: 'must be the question as text' }).trim().min(1, { error: 'must not be empty (or only whitespace)' }),
    ...requestedFilterFields,
    maxSearches: z.number({ error: 'must be a whole number of searches, e.g. 4' }).int({ error: 'must be a whole number, e.g. 4' }).positive({ error: 'must be at least 1' }).optional(),
    route: z.enum(ROUTES as [Route, ...Route[]], { error: `must be one of ${ROUTES.join(', ')}` }).optional(),
  },
  {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return 'must be a JSON object, e.g. ' + ASK_EXAMPLE;
      const access = issue.keys.filter((key) => ['groups', 'principal', 'acl'].includes(key));
      if (access.length > 0) return `${access.join(', ')}: the groups of a request come from its bearer token, never its body; leave ${access.length === 1 ? 'it' : 'them'} out`;
      return `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; an ask has question, version, labels, maxSearches and route`;
    },
  },
);

/** A parsed ask body. */
export type AskRequest = z.infer<typeof askRequestSchema>;

/** What one ask runs with, and the notes about how the request was narrowed. */
export interface PreparedAsk {
  question: string;
  options: RoutedAskOptions;
  notes: string[];
}

/**
 * The routedAsk options of one request, as `atlas ask` builds them from its flags: the server's
 * model, limits, policy and route default; the filter narrowed by the request (see
 * `narrowFilter`) with the token's principal; `maxSearches` capped at the server's; the model
 * lets the event loop turn before each call (`yieldingModel`). Notes say
 * what was narrowed or capped, and name an unknown release line.
 *
 * @example
 * const { question, options, notes } = await prepareAsk(deps, { question: 'What is ORB-1202?' }, principal);
 * const run = await routedAsk(question, options);
 */
export async function prepareAsk(deps: ServerDeps, request: AskRequest, principal: Principal | undefined): Promise<PreparedAsk> {
  const { filter, notes } = narrowFilter(deps.filter, { ...(request.version ? { version: request.version } : {}), ...(request.labels ? { labels: request.labels } : {}) }, principal);
  const serverMax = deps.maxSearches ?? DEFAULT_MAX_SEARCHES;
  if (request.maxSearches !== undefined && request.maxSearches > serverMax) notes.push(`maxSearches ${request.maxSearches} is above the server's ${serverMax}; ${serverMax} searches allowed.`);
  if (filter?.version !== undefined && filter.version !== 'all') notes.push(...(await releaseLineNotes(deps.index, filter.version)));
  return {
    question: request.question,
    notes,
    options: {
      route: request.route ?? deps.route ?? 'agentic',
      model: yieldingModel(deps.model),
      ...(deps.closestModel ? { closestModel: deps.closestModel } : {}),
      index: deps.index,
      price: deps.price,
      maxSearches: Math.min(request.maxSearches ?? serverMax, serverMax),
      firstTurn: deps.firstTurn ?? 'required',
      now: deps.now,
      ...deps.limits,
      ...(filter ? { filter } : {}),
      ...(deps.policy ? { policy: deps.policy, policyStrict: deps.policyStrict === true } : {}),
      ...(deps.modelLabels && deps.modelLabels.length > 0 ? { modelLabels: deps.modelLabels } : {}),
      ...(deps.tracing ? { tracing: deps.tracing } : {}),
    },
  };
}

/**
 * The JSON of a run, as `atlas ask --json` prints it: `{ model, ...run, notes }`.
 *
 * @example
 * runJson(run, 'offline', []); // { model: 'offline', question, answer, trace, usage, latencyMs, route, routeReason, notes: [] }
 */
export function runJson(run: RoutedRun, modelSpec: string, notes: string[]): Record<string, unknown> {
  return { model: modelSpec, ...run, notes };
}

/**
 * The HTTP status of a finished run: 200, or 502 when the model failed and 504 when a time
 * limit ended the run (no answer either way; the body still carries the run).
 *
 * @example
 * runStatus(run); // 200
 */
export function runStatus(run: RoutedRun): 200 | 502 | 504 {
  const stop = run.trace.stopReason;
  return stop === 'error' ? 502 : stop === 'timeout' || stop === 'deadline' ? 504 : 200;
}

/**
 * The ask routes. `/v1/ask` answers the run JSON; `/v1/ask/stream` streams the run's events as
 * SSE (`event: <type>` and `data: <event JSON>`), then `event: run` with the run JSON, and aborts
 * the run when the client goes away. A stream quiet for `keepAliveMs` (default 15 s; 0: never)
 * gets a `: keep-alive` comment line, which SSE clients ignore.
 *
 * @example
 * app.route('/', createAskRoutes(deps));
 */
export function createAskRoutes(deps: ServerDeps, options: { keepAliveMs?: number } = {}): Hono<ServerEnv> {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const routes = new Hono<ServerEnv>();

  routes.post('/v1/ask', async (c) => {
    const prepared = await prepareAsk(deps, await readJsonBody(c, askRequestSchema, ASK_EXAMPLE), c.get('principal'));
    const run = await routedAsk(prepared.question, { ...prepared.options, abortSignal: c.req.raw.signal });
    const status = runStatus(run);
    const body = runJson(run, deps.modelSpec, prepared.notes);
    return c.json(status === 200 ? body : { ...errorBody(status === 502 ? 'model-call' : 'timeout', runFailureMessage(run, deps.modelSpec)), run: body }, status);
  });

  routes.post('/v1/ask/stream', async (c) => {
    // Validation errors are plain JSON errors: the stream starts only for a valid ask.
    const prepared = await prepareAsk(deps, await readJsonBody(c, askRequestSchema, ASK_EXAMPLE), c.get('principal'));
    return streamRun(c, {
      run: async (onEvent, abortSignal) => runJson(await routedAsk(prepared.question, { ...prepared.options, onEvent, abortSignal }), deps.modelSpec, prepared.notes),
      keepAliveMs,
      subject: 'POST /v1/ask/stream',
      log: deps.log ?? (() => {}),
    });
  });

  return routes;
}

/** Why a run ended without an answer, for the error body of a 502/504. */
function runFailureMessage(run: RoutedRun, modelSpec: string): string {
  const cause = (run.trace.errors.at(-1) ?? 'unknown error').replace(/\.$/, '');
  return `Atlas: the run of model "${modelSpec}" ended without an answer (stop: ${run.trace.stopReason}): ${cause}. The run is in "run".`;
}
