import { afterEach, describe, expect, it } from 'vitest';
import {
  hangResponse,
  jsonResponse,
  rateLimitedResponse,
  serverErrorResponse,
  sseResponse,
  startLoopbackServer,
  truncatedResponse,
  type LoopbackServer,
} from './loopback-server.ts';

describe('startLoopbackServer', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('listens on 127.0.0.1, records the request and replays scripted responses in order', async () => {
    server = await startLoopbackServer([jsonResponse({ n: 1 }), jsonResponse({ n: 2 }, { status: 201, headers: { 'x-test': 'yes' } })]);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);

    const first = await fetch(`${server.url}/v1/things?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ n: 1 });

    const second = await fetch(`${server.url}/other`, { method: 'POST', body: 'not json' });
    expect(second.status).toBe(201);
    expect(second.headers.get('x-test')).toBe('yes');
    expect(await second.json()).toEqual({ n: 2 });

    const [one, two] = server.requests();
    expect(one).toMatchObject({ method: 'POST', path: '/v1/things?x=1', body: { hello: 'world' }, unexpected: false });
    expect(one?.headers.authorization).toBe('Bearer k');
    expect(two).toMatchObject({ path: '/other', body: undefined, rawBody: 'not json', unexpected: false });
    expect(() => server?.assertScriptConsumed()).not.toThrow();
  });

  it('answers a request beyond the script with a 500 and records it as unexpected', async () => {
    server = await startLoopbackServer([jsonResponse({ ok: true })]);
    await fetch(`${server.url}/a`, { method: 'POST', body: '{}' });
    const extra = await fetch(`${server.url}/b`, { method: 'POST', body: '{}' });

    expect(extra.status).toBe(500);
    expect(await extra.json()).toEqual({
      error: {
        message: 'loopback server: unexpected request #2 POST /b; the script has only 1 response(s)',
        type: 'loopback_unexpected_request',
      },
    });
    expect(server.unexpectedRequests().map((request) => request.path)).toEqual(['/b']);
    expect(() => server?.assertScriptConsumed()).toThrow('loopback server: 1 unexpected request(s): POST /b');
  });

  it('reports scripted responses that were never requested', async () => {
    server = await startLoopbackServer([jsonResponse({}), jsonResponse({})]);
    await fetch(`${server.url}/a`, { method: 'POST', body: '{}' });
    expect(() => server?.assertScriptConsumed()).toThrow(
      'loopback server: 1 scripted response(s) never requested (got 1 of 2 requests)',
    );
  });

  it('serves a 429 with retry headers and a 500 with retry-after-ms 0', async () => {
    server = await startLoopbackServer([rateLimitedResponse({ retryAfterMs: 1500 }), serverErrorResponse()]);
    const limited = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('1500');
    expect(limited.headers.get('retry-after')).toBe('2');
    const failed = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('retry-after-ms')).toBe('0');
  });

  it('streams server-sent events, named or not, with strings passed verbatim', async () => {
    server = await startLoopbackServer([sseResponse([{ event: 'ping', data: { type: 'ping' } }, { data: { a: 1 } }, '[DONE]'])]);
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('event: ping\ndata: {"type":"ping"}\n\ndata: {"a":1}\n\ndata: [DONE]\n\n');
  });

  it('truncates a body: the client sees the headers, then the read fails', async () => {
    server = await startLoopbackServer([truncatedResponse({ id: 'x'.repeat(200) })]);
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow('terminated');
  });

  it('hangs until the client aborts, and close() drops the hanging connection', async () => {
    server = await startLoopbackServer([hangResponse()]);
    const controller = new AbortController();
    const pending = fetch(server.url, { method: 'POST', body: '{"q":1}', signal: controller.signal });
    await waitFor(() => server!.requests().length === 1);
    controller.abort();
    await expect(pending).rejects.toThrow('This operation was aborted');
    expect(server.requests()[0]?.body).toEqual({ q: 1 });
  });

  it('uses a handler function when given one, and records a throwing handler as unexpected', async () => {
    server = await startLoopbackServer((request, index) => {
      if (index > 0) throw new Error(`no more for ${request.path}`);
      return jsonResponse({ echo: request.body });
    });
    const first = await fetch(`${server.url}/x`, { method: 'POST', body: '{"v":2}' });
    expect(await first.json()).toEqual({ echo: { v: 2 } });
    const second = await fetch(`${server.url}/y`, { method: 'POST', body: '{}' });
    expect(second.status).toBe(500);
    expect(server.unexpectedRequests().map((request) => request.path)).toEqual(['/y']);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
