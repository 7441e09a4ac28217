// Concurrency limits of `atlas serve`: at most `global` requests at once, at most `perClient` of
// one client (its token, else its remote address). A request past either waits in a short bounded
// queue (first come, first served) for a slot; past the wait or the queue's length, 429 with
// Retry-After.
import type { MiddlewareHandler } from 'hono';
import { errorBody } from './http.ts';
import { readWholeBody } from './front/request-body.ts';
import type { ServerEnv } from './types.ts';

/** The limits of a server and their defaults (docs/server.md). */
export interface ServerLimits {
  /** Requests in flight at once, all clients together (default 8). */
  maxConcurrent: number;
  /** Requests in flight at once per client (default 4). */
  maxConcurrentPerClient: number;
  /** Largest request body in bytes (default 65536, 64 KB); larger is a 413. */
  maxBodyBytes: number;
  /** How long a request may wait for a slot before its 429, in ms (default 2000; 0: no queue). */
  queueMs: number;
  /** Requests waiting for a slot at most, all clients (default 32); a client waits with at most `maxConcurrentPerClient` of its own. */
  maxQueued: number;
}

/** The defaults of {@link ServerLimits}. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = { maxConcurrent: 8, maxConcurrentPerClient: 4, maxBodyBytes: 64 * 1024, queueMs: 2000, maxQueued: 32 };

/** How many recent request durations the Retry-After estimate averages. */
const RECENT_DURATIONS = 20;

/** A slot taken by {@link ConcurrencyLimiter.acquire}, or why none was free. */
export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; scope: 'server' | 'client'; limit: number; retryAfterSeconds: number };

/** Counts requests in flight, per client and in all; made per app, never shared. */
export interface ConcurrencyLimiter {
  /** A slot now, or why there is none (no waiting). */
  acquire(client: string): Admission;
  /** A slot now, or once one frees up within the queue's wait; resolves with the refusal when it does not (or when `signal` aborts). */
  admit(client: string, signal?: AbortSignal): Promise<Admission>;
  /** Requests in flight now (all clients). */
  inFlight(): number;
  /** Requests waiting for a slot now. */
  queued(): number;
  /** Resolves once no request is in flight (at once when none is). */
  idle(): Promise<void>;
}

/** Runs `callback` after `ms`; returns what cancels it (default: setTimeout). */
export type Schedule = (ms: number, callback: () => void) => () => void;

const realSchedule: Schedule = (ms, callback) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

interface Waiter {
  client: string;
  settle: (admission: Admission) => void;
}

/**
 * A limiter for {@link ServerLimits}. Retry-After is the mean duration of the last 20 finished
 * requests (by the injected clock), rounded up to whole seconds, at least 1. Waiting requests get
 * slots in arrival order (one whose client is at its own limit lets the next go first); `schedule`
 * times the wait (tests pass a fake).
 *
 * @example
 * const limiter = createConcurrencyLimiter({ maxConcurrent: 8, maxConcurrentPerClient: 2 }, () => performance.now());
 * const admission = limiter.acquire('token:alice'); // { ok: true, release }
 * const waited = await limiter.admit('token:bob'); // a slot within 2 s, or the refusal
 */
export function createConcurrencyLimiter(
  limits: Pick<ServerLimits, 'maxConcurrent' | 'maxConcurrentPerClient'> & Partial<Pick<ServerLimits, 'queueMs' | 'maxQueued'>>,
  now: () => number,
  schedule: Schedule = realSchedule,
): ConcurrencyLimiter {
  const queueMs = limits.queueMs ?? DEFAULT_SERVER_LIMITS.queueMs;
  const maxQueued = limits.maxQueued ?? DEFAULT_SERVER_LIMITS.maxQueued;
  const perClient = new Map<string, number>();
  const durations: number[] = [];
  const idleWaiters: Array<() => void> = [];
  const queue: Waiter[] = [];
  let total = 0;
  const retryAfterSeconds = () => {
    if (durations.length === 0) return 1;
    const mean = durations.reduce((sum, duration) => sum + duration, 0) / durations.length;
    return Math.max(1, Math.ceil(mean / 1000));
  };
  const full = (client: string): 'server' | 'client' | undefined =>
    (perClient.get(client) ?? 0) >= limits.maxConcurrentPerClient ? 'client' : total >= limits.maxConcurrent ? 'server' : undefined;
  const refusal = (scope: 'server' | 'client'): Admission => ({ ok: false, scope, limit: scope === 'client' ? limits.maxConcurrentPerClient : limits.maxConcurrent, retryAfterSeconds: retryAfterSeconds() });
  const grant = (client: string): Admission => {
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    total += 1;
    const started = now();
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (perClient.get(client) ?? 1) - 1;
        if (left === 0) perClient.delete(client);
        else perClient.set(client, left);
        durations.push(now() - started);
        if (durations.length > RECENT_DURATIONS) durations.shift();
        serveQueue();
        if (total === 0) for (const resolve of idleWaiters.splice(0)) resolve();
      },
    };
  };
  // The first waiters whose client is under its limit take the slots free now.
  const serveQueue = () => {
    for (let position = 0; position < queue.length && total < limits.maxConcurrent; ) {
      const waiter = queue[position]!;
      if (full(waiter.client) !== undefined) position += 1;
      else {
        queue.splice(position, 1);
        waiter.settle(grant(waiter.client));
      }
    }
  };
  const acquire = (client: string): Admission => {
    const scope = full(client);
    return scope === undefined ? grant(client) : refusal(scope);
  };
  const admit = (client: string, signal?: AbortSignal): Promise<Admission> => {
    const immediate = acquire(client);
    const waitingOfClient = queue.filter((waiter) => waiter.client === client).length;
    if (immediate.ok || queueMs <= 0 || queue.length >= maxQueued || waitingOfClient >= limits.maxConcurrentPerClient || signal?.aborted) return Promise.resolve(immediate);
    return new Promise((resolve) => {
      const leave = () => {
        const position = queue.indexOf(waiter);
        if (position >= 0) queue.splice(position, 1);
        return position >= 0;
      };
      const onAbort = () => {
        if (leave()) settle(refusal(full(client) ?? 'server'));
      };
      const cancelTimer = schedule(queueMs, () => {
        if (leave()) settle(refusal(full(client) ?? 'server'));
      });
      const settle = (admission: Admission) => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        resolve(admission);
      };
      const waiter: Waiter = { client, settle };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  return {
    acquire,
    admit,
    inFlight: () => total,
    queued: () => queue.length,
    idle: () => (total === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
  };
}

/**
 * Middleware that reads the request body whole first (a slow or half-sent body holds no slot),
 * then waits for a slot of `limiter` (its queue) and holds it for the whole request, an event
 * stream (SSE) until its last byte or its cancellation; answers 429 with `Retry-After` when none
 * frees up in time.
 * A GET event stream (the notification stream an MCP client keeps open on `/mcp`) frees its slot
 * once its headers are sent: it listens and does no work, and held open it would take a slot of
 * its client for good (the MCP sessions bound how many there are). Runs after the auth
 * middleware (the client is the token's name).
 *
 * @example
 * app.use('/v1/*', createLimitMiddleware(limiter));
 */
export function createLimitMiddleware(limiter: ConcurrencyLimiter): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    await readWholeBody(c);
    const admission = await limiter.admit(c.get('client'), c.req.raw.signal);
    if (!admission.ok) {
      c.header('Retry-After', String(admission.retryAfterSeconds));
      const who = admission.scope === 'client' ? 'this client' : 'the server';
      return c.json(errorBody('too-many-requests', `Atlas: ${who} already has ${admission.limit} request${admission.limit === 1 ? '' : 's'} in flight (the limit); retry after ${admission.retryAfterSeconds} s.`), 429);
    }
    let streaming = false;
    try {
      await next();
      const body = c.res.body;
      const listener = c.req.method === 'GET';
      if (body !== null && !listener && (c.res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        c.res = new Response(releasingAtEnd(body, admission.release), c.res);
        streaming = true;
      }
    } finally {
      if (!streaming) admission.release();
    }
  };
}

/**
 * The same bytes as `body`; `release` runs once when it ends, fails or is cancelled.
 *
 * @example
 * c.res = new Response(releasingAtEnd(c.res.body, admission.release), c.res);
 */
export function releasingAtEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}
