// The HTTP front under abuse, over real loopback sockets: half-sent bodies hold no slot and get a
// 408 at the read timeout; users behind a trusted proxy are counted apart and queued, not refused.
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../../index/types.ts';
import { createOrbitIndex } from '../../testing/orbit-index.ts';
import { createApp, type AppOptions } from '../app.ts';
import { parseTrustedProxies } from './client-address.ts';
import { createConcurrencyLimiter } from '../limits.ts';
import { createNodeServer } from './node-server.ts';
import { createGatedModel, post, testDeps } from '../test-server.ts';
import type { ServerDeps, ServerEnv } from '../types.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

/** Serves an app on a free loopback port with short read timeouts; `stop` drops every connection. */
async function serveApp(deps: ServerDeps, options: AppOptions, timeoutMs = 1_000): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const server: Server = createNodeServer(createApp(deps, options).fetch, { headerTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}`, port, stop };
}

/** A raw socket that writes `text` and collects what comes back until the server closes it. */
function rawRequest(port: number, text: string): { socket: Socket; reply: Promise<{ text: string; atMs: number }> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(text);
  const reply = new Promise<{ text: string; atMs: number }>((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text: received, atMs: performance.now() }));
  });
  return { socket, reply };
}

describe('half-sent requests', () => {
  it('8 half-sent bodies and a half-sent header take no slot: other clients are answered, they get 408 at the read timeout', async () => {
    const lines: string[] = [];
    const { url, port, stop } = await serveApp(testDeps(index, { log: (line) => lines.push(line) }), { limits: { maxConcurrent: 8, maxConcurrentPerClient: 4 } });
    try {
      const started = performance.now();
      const body = JSON.stringify({ question: 'What does ORB-1202 mean?' });
      const half = Array.from({ length: 8 }, () => rawRequest(port, `POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`));
      const slowHeader = rawRequest(port, 'GET /v1/search?q=lease HTTP/1.1\r\nHost: x\r\n');
      let closedEarly = 0;
      for (const request of [...half, slowHeader]) void request.reply.then(() => (closedEarly += 1));
      // Let the server take the 8 requests in (their handlers wait for the rest of the body).
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${url}/v1/search?q=ORB-1202`)));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 8 }, () => 200));
      expect((await answers[0]!.json()).hits[0].chunkId).toBe('error-codes#4');
      expect(closedEarly).toBe(0);
      const replies = await Promise.all([...half, slowHeader].map((request) => request.reply));
      for (const reply of replies) expect(reply.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      // Each within the read timeout (1 s of headers + 1 s of body) plus Node's check interval (250 ms) and slack.
      expect(Math.max(...replies.map((reply) => reply.atMs - started))).toBeLessThan(3_500);
      // The abandoned bodies are an info line each, never a failure with a stack.
      await expect.poll(() => lines.length).toBe(8);
      // Whichever Node reports first: the body that stopped short, or the connection it closed.
      const infoLine = /^atlas serve: info: POST \/v1\/ask: (Atlas: the request body did not arrive whole|the connection closed before the answer was complete)/;
      expect(lines.filter((line) => infoLine.test(line))).toHaveLength(8);
      expect(lines.some((line) => /unexpected|\n\s+at /.test(line))).toBe(false);
    } finally {
      await stop();
    }
  });
});

describe('a client that goes away', () => {
  it('mid-run: the run is aborted and the log gets one info line, no stack', async () => {
    const lines: string[] = [];
    const model = createGatedModel();
    const { port, stop } = await serveApp(testDeps(index, { model, log: (line) => lines.push(line) }), {});
    try {
      const body = JSON.stringify({ question: 'What does ORB-1202 mean?' });
      const { socket, reply } = rawRequest(port, `POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await model.started(1);
      socket.destroy();
      await reply;
      await expect.poll(() => model.signals[0]?.aborted).toBe(true);
      await expect.poll(() => lines).toEqual(['atlas serve: info: POST /v1/ask: the connection closed before the answer was complete (the client went away, or the server stopped).']);
    } finally {
      model.release();
      await stop();
    }
  });
});

describe('clients behind a trusted proxy', () => {
  /** A route that holds each request until `open()`, then echoes its body (read after the limiter buffered it). */
  const gatedEcho = () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const routes = new Hono<ServerEnv>().post('/v1/echo', async (c) => {
      await gate;
      return c.json(await c.req.json());
    });
    return { routes, open };
  };
  const ask = (url: string, forwardedFor: string, user: number) =>
    fetch(`${url}/v1/echo`, { ...post({ user }), headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } });

  it('20 concurrent users through one trusted proxy are served (8 run, 12 queue), none refused', async () => {
    const { routes, open } = gatedEcho();
    const limiter = createConcurrencyLimiter({ maxConcurrent: 8, maxConcurrentPerClient: 4, queueMs: 2_000, maxQueued: 32 }, () => 0);
    const { url, stop } = await serveApp(testDeps(index), { limiter, routes: [routes], trustProxy: parseTrustedProxies(['127.0.0.1/32']) });
    try {
      const answers = Array.from({ length: 20 }, (_, user) => ask(url, `198.51.100.9, 203.0.113.${user + 1}`, user));
      await expect.poll(() => [limiter.inFlight(), limiter.queued()]).toEqual([8, 12]);
      open();
      const replies = await Promise.all(answers);
      expect(replies.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(await Promise.all(replies.map((reply) => reply.json()))).toEqual(Array.from({ length: 20 }, (_, user) => ({ user })));
    } finally {
      await stop();
    }
  });

  it('without --trust-proxy the same 20 are one client: 4 run, 4 queue, 12 are refused at once', async () => {
    const { routes, open } = gatedEcho();
    const limiter = createConcurrencyLimiter({ maxConcurrent: 8, maxConcurrentPerClient: 4, queueMs: 2_000, maxQueued: 32 }, () => 0);
    const { url, stop } = await serveApp(testDeps(index), { limiter, routes: [routes] });
    try {
      const answers = Array.from({ length: 20 }, (_, user) => ask(url, `203.0.113.${user + 1}`, user));
      const refused = await Promise.all(answers.slice(8));
      expect(refused.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 429));
      expect(refused[0]!.headers.get('retry-after')).toBe('1');
      expect([limiter.inFlight(), limiter.queued()]).toEqual([4, 4]);
      open();
      expect((await Promise.all(answers.slice(0, 8))).map((answer) => answer.status)).toEqual(Array.from({ length: 8 }, () => 200));
    } finally {
      await stop();
    }
  });
});

describe('createNodeServer', () => {
  it('refuses read timeouts that are not positive whole numbers of ms, naming the option', () => {
    const fetch = () => new Response('ok');
    expect(() => createNodeServer(fetch, { headerTimeoutMs: 0, bodyTimeoutMs: 10_000 })).toThrow('Atlas: createNodeServer headerTimeoutMs must be a positive whole number of ms, got 0; pass e.g. headerTimeoutMs: 10000.');
    expect(() => createNodeServer(fetch, { headerTimeoutMs: 10_000, bodyTimeoutMs: 2.5 })).toThrow('Atlas: createNodeServer bodyTimeoutMs must be a positive whole number of ms, got 2.5; pass e.g. bodyTimeoutMs: 10000.');
  });
});
