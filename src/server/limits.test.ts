import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createApp } from './app.ts';
import type { AuthConfig } from './auth.ts';
import { createConcurrencyLimiter, type Schedule } from './limits.ts';
import { createGatedModel, parseSse, post, testDeps } from './test-server.ts';

describe('createConcurrencyLimiter', () => {
  it('admits up to the per-client and global limits, and frees a slot once on release', () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 3, maxConcurrentPerClient: 2 }, () => 0);
    const a1 = limiter.acquire('a');
    const a2 = limiter.acquire('a');
    expect([a1.ok, a2.ok]).toEqual([true, true]);
    expect(limiter.acquire('a')).toEqual({ ok: false, scope: 'client', limit: 2, retryAfterSeconds: 1 });
    expect(limiter.acquire('b').ok).toBe(true);
    expect(limiter.acquire('c')).toEqual({ ok: false, scope: 'server', limit: 3, retryAfterSeconds: 1 });
    if (a1.ok) {
      a1.release();
      a1.release();
    }
    expect(limiter.inFlight()).toBe(2);
    expect(limiter.acquire('c').ok).toBe(true);
    expect(limiter.acquire('d').ok).toBe(false);
  });

  it('idle() resolves once the last request in flight is released', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 3, maxConcurrentPerClient: 3 }, () => 0);
    await limiter.idle();
    const first = limiter.acquire('a');
    const second = limiter.acquire('b');
    let idle = false;
    const waiting = limiter.idle().then(() => (idle = true));
    if (first.ok) first.release();
    await Promise.resolve();
    expect(idle).toBe(false);
    if (second.ok) second.release();
    await waiting;
    expect([idle, limiter.inFlight()]).toEqual([true, 0]);
  });

  it('Retry-After is the mean duration of recent requests by the injected clock, rounded up', () => {
    let now = 0;
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxConcurrentPerClient: 1 }, () => now);
    for (const duration of [1000, 3400]) {
      const admission = limiter.acquire('a');
      now += duration;
      if (admission.ok) admission.release();
    }
    limiter.acquire('a');
    expect(limiter.acquire('b')).toEqual({ ok: false, scope: 'server', limit: 1, retryAfterSeconds: 3 });
  });
});

describe('the queue of createConcurrencyLimiter', () => {
  /** A fake timer: `fire()` runs every callback scheduled and not cancelled. */
  const fakeSchedule = () => {
    const pending = new Set<() => void>();
    const schedule: Schedule = (_ms, callback) => {
      pending.add(callback);
      return () => pending.delete(callback);
    };
    return { schedule, pending, fire: () => [...pending].forEach((callback) => (pending.delete(callback), callback())) };
  };

  it('a request past the limit waits; a released slot goes to the first waiter whose client is under its own limit', async () => {
    const timers = fakeSchedule();
    const limiter = createConcurrencyLimiter({ maxConcurrent: 2, maxConcurrentPerClient: 1, queueMs: 2000, maxQueued: 4 }, () => 0, timers.schedule);
    const a = await limiter.admit('a');
    const b = await limiter.admit('b');
    const order: string[] = [];
    const waitingA = limiter.admit('a').then((admission) => (order.push('a'), admission));
    const waitingC = limiter.admit('c').then((admission) => (order.push('c'), admission));
    expect([limiter.inFlight(), limiter.queued(), timers.pending.size]).toEqual([2, 2, 2]);
    // b's slot: the second a still waits for a's own, so c goes first.
    if (b.ok) b.release();
    expect((await waitingC).ok).toBe(true);
    if (a.ok) a.release();
    expect((await waitingA).ok).toBe(true);
    expect([order, limiter.inFlight(), limiter.queued(), timers.pending.size]).toEqual([['c', 'a'], 2, 0, 0]);
  });

  it('past the wait, past the queue length or past the client\'s own share of it, the refusal', async () => {
    const timers = fakeSchedule();
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxConcurrentPerClient: 1, queueMs: 2000, maxQueued: 2 }, () => 0, timers.schedule);
    expect((await limiter.admit('a')).ok).toBe(true);
    const waiting = [limiter.admit('b'), limiter.admit('c')];
    // The queue is full (2).
    expect(await limiter.admit('d')).toEqual({ ok: false, scope: 'server', limit: 1, retryAfterSeconds: 1 });
    timers.fire();
    expect(await Promise.all(waiting)).toEqual([
      { ok: false, scope: 'server', limit: 1, retryAfterSeconds: 1 },
      { ok: false, scope: 'server', limit: 1, retryAfterSeconds: 1 },
    ]);
    const alone = createConcurrencyLimiter({ maxConcurrent: 4, maxConcurrentPerClient: 1, queueMs: 2000, maxQueued: 8 }, () => 0, timers.schedule);
    await alone.admit('a');
    void alone.admit('a');
    expect(await alone.admit('a')).toEqual({ ok: false, scope: 'client', limit: 1, retryAfterSeconds: 1 });
  });

  it('a waiter whose request is aborted leaves the queue with the refusal; queueMs 0 refuses at once', async () => {
    const timers = fakeSchedule();
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxConcurrentPerClient: 1, queueMs: 2000, maxQueued: 4 }, () => 0, timers.schedule);
    const held = await limiter.admit('a');
    const abort = new AbortController();
    const waiting = limiter.admit('b', abort.signal);
    abort.abort();
    expect(await waiting).toEqual({ ok: false, scope: 'server', limit: 1, retryAfterSeconds: 1 });
    expect([limiter.queued(), timers.pending.size]).toEqual([0, 0]);
    if (held.ok) held.release();
    expect(limiter.inFlight()).toBe(0);
    const noQueue = createConcurrencyLimiter({ maxConcurrent: 1, maxConcurrentPerClient: 1, queueMs: 0 }, () => 0, timers.schedule);
    await noQueue.admit('a');
    expect([(await noQueue.admit('b')).ok, noQueue.queued()]).toEqual([false, 0]);
  });
});

describe('429 + Retry-After over HTTP', () => {
  let index: IndexBackend;
  beforeAll(async () => {
    index = await createOrbitIndex();
  });
  afterAll(async () => {
    await index.close();
  });
  const tokens = ['alice', 'bob', 'carol'].map((name) => ({ name, token: `${name}-0123456789abcdef`, principal: undefined }));
  const auth: AuthConfig = { source: 'test', tokens };
  const token = (name: string) => `${name}-0123456789abcdef`;

  it('per client (per token), then for the server; a finished stream frees its slot', async () => {
    const model = createGatedModel();
    const app = createApp(testDeps(index, { model }), { auth, limits: { maxConcurrent: 2, maxConcurrentPerClient: 1, queueMs: 0 } });
    const ask = (name: string) => app.request('/v1/ask', post({ question: 'What does ORB-1202 mean?' }, token(name)));
    const first = ask('alice');
    const stream = await app.request('/v1/ask/stream', post({ question: 'What does ORB-1202 mean?' }, token('bob')));
    await model.started(2);
    const again = await ask('alice');
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
    expect(await again.json()).toEqual({ error: { code: 'too-many-requests', message: 'Atlas: this client already has 1 request in flight (the limit); retry after 1 s.' } });
    const full = await ask('carol');
    expect(full.status).toBe(429);
    expect((await full.json()).error.message).toBe('Atlas: the server already has 2 requests in flight (the limit); retry after 1 s.');
    // Searches count too, and the health check never does.
    expect((await app.request('/v1/search?q=lease', { headers: { authorization: `Bearer ${token('carol')}` } })).status).toBe(429);
    expect((await app.request('/healthz')).status).toBe(200);
    model.release();
    expect((await first).status).toBe(200);
    expect(parseSse(await stream.text()).at(-1)!.event).toBe('run');
    expect((await ask('carol')).status).toBe(200);
    expect((await ask('alice')).status).toBe(200);
  });

  it('without auth the client is the remote address', async () => {
    const model = createGatedModel();
    let address = '10.0.0.1';
    const app = createApp(testDeps(index, { model }), { limits: { maxConcurrent: 5, maxConcurrentPerClient: 1, queueMs: 0 }, remoteAddress: () => address });
    const first = app.request('/v1/ask', post({ question: 'What does ORB-1202 mean?' }));
    await model.started(1);
    expect((await app.request('/v1/search?q=lease')).status).toBe(429);
    address = '10.0.0.2';
    expect((await app.request('/v1/search?q=lease')).status).toBe(200);
    model.release();
    expect((await first).status).toBe(200);
  });

  it('a GET event stream (an MCP notification stream) does not keep its slot while it stays open', async () => {
    const streams: Array<ReadableStreamDefaultController<Uint8Array>> = [];
    // Every request gets an event stream that stays open until the client cancels it.
    const listen = () => new Response(new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) }), { headers: { 'content-type': 'text/event-stream' } });
    const app = createApp(testDeps(index), { auth, limits: { maxConcurrent: 2, maxConcurrentPerClient: 1, queueMs: 0 }, mounts: { '/mcp': listen } });
    const headers = { authorization: `Bearer ${token('alice')}` };
    const opened = await app.request('/mcp', { headers });
    expect([opened.status, opened.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    // The open GET stream left alice's one slot free; a POST stream holds it until it ends.
    expect((await app.request('/v1/search?q=lease', { headers })).status).toBe(200);
    const posted = await app.request('/mcp', { method: 'POST', headers, body: '{}' });
    expect(posted.status).toBe(200);
    expect((await app.request('/v1/search?q=lease', { headers })).status).toBe(429);
    await posted.body!.cancel();
    expect((await app.request('/v1/search?q=lease', { headers })).status).toBe(200);
    expect(streams).toHaveLength(2);
    await opened.body!.cancel();
  });
});
