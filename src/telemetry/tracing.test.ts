// Tracing starts only when configured, and then exports through the real OTLP/HTTP exporter
// (JSON bodies) to a collector: here a loopback HTTP server that records what it receives.
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { agenticRun } from '../agent/run.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { jsonResponse, startLoopbackServer } from '../testing/loopback-server.ts';
import { otlpSpans } from '../testing/otlp-spans.ts';
import { attributeText, inSpan, startTracing } from './tracing.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('startTracing', () => {
  it('loads nothing and records nothing when no exporter is configured', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return import('./sdk-tracing.ts');
    };
    expect(await startTracing({ env: {}, serviceVersion: 'test', load })).toBeUndefined();
    expect(await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_EXPORTER: 'none' }, serviceVersion: 'test', load })).toBeUndefined();
    expect(loads).toBe(0);
    // No provider was registered: the API's tracer hands out spans that record nothing.
    const span = trace.getTracer('atlas-rag').startSpan('atlas.run');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('exports a run\'s spans with the real OTLP/HTTP exporter to the configured endpoint, flushed by shutdown', async () => {
    const collector = await startLoopbackServer(() => jsonResponse({}));
    cleanups.push(() => collector.close());
    const tracing = await startTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: 'x-team=docs', OTEL_SERVICE_NAME: 'atlas-test' },
      serviceVersion: 'test',
    });
    expect(tracing).toBeDefined();
    cleanups.push(() => tracing!.shutdown());
    const index = createMemoryIndex([makeDoc('error-codes', 'all', [['Payload errors', 'ORB-1202 PayloadTooLarge: the result exceeded max_payload_kb.']])]);
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202' } }] },
      { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'error-codes#0' } }] },
      { answer: { text: 'PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } },
    ]);
    await inSpan(tracing!.tracer, 'atlas ask', {}, () => agenticRun('What is ORB-1202?', { model, index, tracing }));
    expect(collector.requests()).toEqual([]); // batched: nothing is sent before the flush
    await tracing!.shutdown();

    const requests = collector.requests();
    expect(requests.map(({ method, path, headers }) => [method, path, headers['content-type'], headers['x-team']])).toEqual([['POST', '/v1/traces', 'application/json', 'docs']]);
    const spans = otlpSpans(requests.map((request) => request.rawBody));
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['atlas-test']));
    const sorted = (list: Array<{ name: string; parent: string }>) => list.map(({ name, parent }) => `${name} <- ${parent}`).sort();
    expect(sorted(spans)).toEqual(sorted([
      { name: 'atlas ask', parent: 'root' },
      { name: 'atlas.run', parent: 'atlas ask' },
      { name: 'atlas.search', parent: 'atlas.run' },
      { name: 'atlas.read', parent: 'atlas.run' },
      ...Array.from({ length: 3 }, () => [{ name: 'ai.generateText', parent: 'atlas.run' }, { name: 'ai.generateText.doGenerate', parent: 'ai.generateText' }]).flat(),
    ]));
  });
});

describe('attributeText', () => {
  it('keeps a short text and cuts a long one to the limit, marked', () => {
    expect(attributeText('lease timeout')).toBe('lease timeout');
    expect(attributeText('abcdef', 4)).toBe('abc…');
    expect(attributeText('x'.repeat(5000)).length).toBe(1000);
  });
});
