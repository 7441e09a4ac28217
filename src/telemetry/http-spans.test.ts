import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { withRequestSpans } from './http-spans.ts';
import { createTracing } from './sdk-tracing.ts';
import { inSpan } from './tracing.ts';

const exporter = new InMemorySpanExporter();
const tracing = createTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)], serviceVersion: 'test' });
afterAll(() => tracing.shutdown());
beforeEach(() => exporter.reset());

const routes = ['/v1/ask', '/v1/ask/stream', '/v1/chunks/:chunkId{.+}', '/v1/conversations/:id/messages', '/v1/*', '/mcp', '/mcp/*'];
const spanOf = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name);

describe('withRequestSpans', () => {
  it('names the span by its route template and makes it the parent of what the handler starts', async () => {
    const fetch = withRequestSpans(async () => inSpan(tracing.tracer, 'atlas.run', {}, async () => Response.json({ ok: true })), { tracer: tracing.tracer, routes });
    for (const path of ['/v1/chunks/guides%2Finstall%230', '/v1/conversations/c1/messages', '/v1/nothing', '/mcp', '/other']) {
      expect((await fetch(new Request(`http://127.0.0.1:8787${path}`, { method: 'POST', headers: { 'user-agent': 'test-client' } }))).status).toBe(200);
    }
    expect(exporter.getFinishedSpans().filter((span) => span.name !== 'atlas.run').map((span) => [span.name, span.attributes['http.route'], span.kind])).toEqual([
      ['POST /v1/chunks/:chunkId', '/v1/chunks/:chunkId', 1],
      ['POST /v1/conversations/:id/messages', '/v1/conversations/:id/messages', 1],
      ['POST /v1/*', '/v1/*', 1],
      ['POST /mcp', '/mcp', 1],
      ['POST', undefined, 1],
    ]);
    const server = spanOf('POST /mcp')!;
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/mcp',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': 8787,
      'http.route': '/mcp',
      'user_agent.original': 'test-client',
      'http.response.status_code': 200,
    });
    const runs = exporter.getFinishedSpans().filter((span) => span.name === 'atlas.run');
    expect(runs.map((run) => run.parentSpanContext?.spanId)).toEqual(exporter.getFinishedSpans().filter((span) => span.name !== 'atlas.run').map((span) => span.spanContext().spanId));
  });

  it('continues the caller\'s trace from its traceparent header', async () => {
    const fetch = withRequestSpans(async () => new Response('ok'), { tracer: tracing.tracer, routes });
    await fetch(new Request('http://127.0.0.1/v1/ask', { method: 'POST', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }));
    const span = spanOf('POST /v1/ask')!;
    expect([span.spanContext().traceId, span.parentSpanContext?.spanId, span.parentSpanContext?.isRemote]).toEqual(['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', true]);
  });

  it('marks a 5xx an error, and a thrown handler error an error span that is rethrown', async () => {
    await withRequestSpans(async () => new Response('down', { status: 503 }), { tracer: tracing.tracer, routes })(new Request('http://127.0.0.1/v1/ask', { method: 'POST' }));
    const failing = withRequestSpans(async () => {
      throw new Error('index closed');
    }, { tracer: tracing.tracer, routes });
    await expect(failing(new Request('http://127.0.0.1/v1/ask/stream', { method: 'POST' }))).rejects.toThrow('index closed');
    expect([spanOf('POST /v1/ask')?.status, spanOf('POST /v1/ask')?.attributes['error.type']]).toEqual([{ code: 2 }, '503']);
    expect(spanOf('POST /v1/ask/stream')?.status).toEqual({ code: 2, message: 'index closed' });
  });

  it('ends a POST event stream\'s span after its last byte, or when the client cancels it', async () => {
    const stream = (text: string) => new Response(new ReadableStream({ start: (controller) => { controller.enqueue(new TextEncoder().encode(text)); controller.close(); } }), { headers: { 'content-type': 'text/event-stream' } });
    const fetch = withRequestSpans(async () => stream('event: run\ndata: {}\n\n'), { tracer: tracing.tracer, routes });
    const response = await fetch(new Request('http://127.0.0.1/v1/ask/stream', { method: 'POST' }));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(await response.text()).toBe('event: run\ndata: {}\n\n');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['POST /v1/ask/stream']);
    const cancelled = await fetch(new Request('http://127.0.0.1/v1/ask/stream', { method: 'POST' }));
    await cancelled.body!.cancel();
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.attributes['atlas.http.cancelled']])).toEqual([['POST /v1/ask/stream', undefined], ['POST /v1/ask/stream', true]]);
  });
});
