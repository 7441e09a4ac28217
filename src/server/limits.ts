// Concurrency limits of `atlas serve`: at most `global` requests at once, at most `perClient` of
// one client (its token, else its remote address); past either, 429 with Retry-After.
import type { MiddlewareHandler } from 'hono';
import { errorBody } from './http.ts';
import type { ServerEnv } from './types.ts';

/** The limits of a server and their defaults (docs/server.md). */
export interface ServerLimits {
  /** Requests in flight at once, all clients together (default 8). */
  maxConcurrent: number;
  /** Requests in flight at once per client (default 4). */
  maxConcurrentPerClient: number;
  /** Largest request body in bytes (default 65536, 64 KB); larger is a 413. */
  maxBodyBytes: number;
}

/** The defaults of {@link ServerLimits}. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = { maxConcurrent: 8, maxConcurrentPerClient: 4, maxBodyBytes: 64 * 1024 };

/** How many recent request durations the Retry-After estimate averages. */
const RECENT_DURATIONS = 20;

/** A slot taken by {@link ConcurrencyLimiter.acquire}, or why none was free. */
export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; scope: 'server' | 'client'; limit: number; retryAfterSeconds: number };

/** Counts requests in flight, per client and in all; made per app, never shared. */
export interface ConcurrencyLimiter {
  acquire(client: string): Admission;
  /** Requests in flight now (all clients). */
  inFlight(): number;
  /** Resolves once no request is in flight (at once when none is). */
  idle(): Promise<void>;
}

/**
 * A limiter for {@link ServerLimits}. Retry-After is the mean duration of the last 20 finished
 * requests (by the injected clock), rounded up to whole seconds, at least 1.
 *
 * @example
 * const limiter = createConcurrencyLimiter({ maxConcurrent: 8, maxConcurrentPerClient: 2 }, () => performance.now());
 * const admission = limiter.acquire('token:alice'); // { ok: true, release }
 */
export function createConcurrencyLimiter(limits: Pick<ServerLimits, 'maxConcurrent' | 'maxConcurrentPerClient'>, now: () => number): ConcurrencyLimiter {
  const perClient = new Map<string, number>();
  const durations: number[] = [];
  const idleWaiters: Array<() => void> = [];
  let total = 0;
  const retryAfterSeconds = () => {
    if (durations.length === 0) return 1;
    const mean = durations.reduce((sum, duration) => sum + duration, 0) / durations.length;
    return Math.max(1, Math.ceil(mean / 1000));
  };
  return {
    acquire(client) {
      const mine = perClient.get(client) ?? 0;
      if (mine >= limits.maxConcurrentPerClient) return { ok: false, scope: 'client', limit: limits.maxConcurrentPerClient, retryAfterSeconds: retryAfterSeconds() };
      if (total >= limits.maxConcurrent) return { ok: false, scope: 'server', limit: limits.maxConcurrent, retryAfterSeconds: retryAfterSeconds() };
      perClient.set(client, mine + 1);
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
          if (total === 0) for (const resolve of idleWaiters.splice(0)) resolve();
        },
      };
    },
    inFlight: () => total,
    idle: () => (total === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
  };
}

/**
 * Middleware that holds a slot of `limiter` for the whole request, an event stream (SSE) until
 * its last byte or its cancellation, and answers 429 with `Retry-After` when none is free.
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
    const admission = limiter.acquire(c.get('client'));
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
