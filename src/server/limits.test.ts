import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createApp } from './app.ts';
import type { AuthConfig } from './auth.ts';
import { createConcurrencyLimiter } from './limits.ts';
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
    const app = createApp(testDeps(index, { model }), { auth, limits: { maxConcurrent: 2, maxConcurrentPerClient: 1 } });
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
    const app = createApp(testDeps(index, { model }), { limits: { maxConcurrent: 5, maxConcurrentPerClient: 1 }, remoteAddress: () => address });
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
    const app = createApp(testDeps(index), { auth, limits: { maxConcurrent: 2, maxConcurrentPerClient: 1 }, mounts: { '/mcp': listen } });
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
