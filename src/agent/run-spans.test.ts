// The spans of a run (issue 39, item 5): a scripted model that searches 3 times and reads twice,
// traced through the real OpenTelemetry SDK into an in-memory exporter.
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTracing } from '../telemetry/sdk-tracing.ts';
import { inSpan, type Tracing } from '../telemetry/tracing.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { classicAsk } from './classic.ts';
import { agenticRun } from './run.ts';

const docs = [
  makeDoc('flows', 'all', [
    ['Flows', 'A flow is a graph of steps.'],
    ['Step results', 'A step whose return value exceeds the payload limit fails with ORB-1202 after it ran.'],
  ]),
  makeDoc('error-codes', 'all', [
    ['Error codes', 'Every Orbit error has a code.'],
    ['Payload errors', 'ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.'],
  ]),
  makeDoc('leases-3x', '3.x', [['Leases in 3.x', 'The lease is set by [worker] lease_seconds.']]),
  makeDoc('scheduling', 'all', [['Scheduling', 'Cron schedules run in the scheduler process.']]),
];

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = createTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)], serviceVersion: 'test' });
});
afterAll(async () => {
  await tracing.shutdown();
});
beforeEach(() => exporter.reset());

const search = (query: string, extra: Record<string, unknown> = {}) => ({ toolName: 'search_docs', input: { query, ...extra } });
const read = (chunkId: string) => ({ toolName: 'read_section', input: { chunk_id: chunkId } });

/**
 * The finished spans as a tree, depth first: `name` indented two spaces per level. Siblings are in
 * the order they started, ties (same clock tick) in the order they ended, as the exporter got them.
 */
function tree(spans: ReadableSpan[]): string[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const lines: string[] = [];
  const visit = (parentId: string | undefined, depth: number) => {
    const children = spans
      .map((span, ended) => ({ span, ended }))
      .filter(({ span }) => (parentId === undefined ? !ids.has(span.parentSpanContext?.spanId ?? '') : span.parentSpanContext?.spanId === parentId))
      .sort((a, b) => a.span.startTime[0] - b.span.startTime[0] || a.span.startTime[1] - b.span.startTime[1] || a.ended - b.ended);
    for (const { span } of children) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      visit(span.spanContext().spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return lines;
}
const named = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);

describe('the spans of a run', () => {
  it('nests 3 searches, 2 reads and the AI SDK model calls under the run span, with their attributes', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('ORB-1202')] },
      { toolCalls: [read('error-codes#1')] },
      { toolCalls: [search('cron schedules')] },
      { toolCalls: [read('flows#1')] },
      { toolCalls: [search('lease seconds', { version: '3.x' })] },
      { answer: { text: 'It fails with ORB-1202.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.' }] } },
    ]);
    const run = await inSpan(tracing.tracer, 'atlas ask', {}, () =>
      agenticRun('What happens when a step result is too big?', { model, index: createMemoryIndex(docs), weakScore: 0, tracing }),
    );
    expect(run.trace.stopReason).toBe('model-done');

    const spans = exporter.getFinishedSpans();
    const generate = ['    ai.generateText', '      ai.generateText.doGenerate'];
    expect(tree(spans)).toEqual([
      'atlas ask',
      '  atlas.run',
      ...generate,
      '    atlas.search',
      ...generate,
      '    atlas.read',
      ...generate,
      '    atlas.search',
      ...generate,
      '    atlas.read',
      ...generate,
      '    atlas.search',
      ...generate,
    ]);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    const [runSpan] = named('atlas.run');
    expect(runSpan?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'atlas',
      'atlas.run.kind': 'agentic',
      'gen_ai.request.model': 'scripted',
      'gen_ai.provider.name': 'scripted',
      'atlas.run.question': 'What happens when a step result is too big?',
      'atlas.run.stop_reason': 'model-done',
      'atlas.run.outcome': 'answered',
      'atlas.run.searches': 3,
      'atlas.run.reads': 2,
      'atlas.run.model_calls': 6,
      'atlas.run.citations': 1,
      'atlas.run.dropped_citations': 0,
      'gen_ai.usage.input_tokens': run.usage.inputTokens,
      'gen_ai.usage.output_tokens': run.usage.outputTokens,
    });
    expect(runSpan?.status.code).toBe(0);

    // The memory index scores a passage by how often it holds the query's terms.
    const searches = named('atlas.search').map((span) => span.attributes);
    expect(searches).toEqual([
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search_docs',
        'gen_ai.tool.call.id': 'call-1-1',
        'atlas.search.query': 'ORB-1202',
        'atlas.search.filter': '{}',
        'atlas.search.hits': 2,
        'atlas.search.doc_ids': ['error-codes', 'flows'],
        'atlas.search.new_doc_ids': ['error-codes', 'flows'],
        'atlas.search.skipped_seen': 0,
        'atlas.search.best_score': 3,
      },
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search_docs',
        'gen_ai.tool.call.id': 'call-3-1',
        'atlas.search.query': 'cron schedules',
        'atlas.search.filter': '{}',
        'atlas.search.hits': 1,
        'atlas.search.doc_ids': ['scheduling'],
        'atlas.search.new_doc_ids': ['scheduling'],
        'atlas.search.skipped_seen': 0,
        'atlas.search.best_score': 2,
      },
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search_docs',
        'gen_ai.tool.call.id': 'call-5-1',
        'atlas.search.query': 'lease seconds',
        'atlas.search.filter': '{"version":"3.x"}',
        'atlas.search.hits': 1,
        'atlas.search.doc_ids': ['leases-3x'],
        'atlas.search.new_doc_ids': ['leases-3x'],
        'atlas.search.skipped_seen': 0,
        'atlas.search.best_score': 1,
      },
    ]);

    expect(named('atlas.read').map((span) => span.attributes)).toEqual([
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_section',
        'gen_ai.tool.call.id': 'call-2-1',
        'atlas.read.tool': 'read_section',
        'atlas.read.chunk_id': 'error-codes#1',
        'atlas.read.doc_id': 'error-codes',
        'atlas.read.found': true,
        // A short section is read with its neighbours: the section before it is new to the run.
        'atlas.read.new_chunk_ids': ['error-codes#0'],
        'atlas.read.offset': 0,
      },
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_section',
        'gen_ai.tool.call.id': 'call-4-1',
        'atlas.read.tool': 'read_section',
        'atlas.read.chunk_id': 'flows#1',
        'atlas.read.doc_id': 'flows',
        'atlas.read.found': true,
        'atlas.read.new_chunk_ids': ['flows#0'],
        'atlas.read.offset': 0,
      },
    ]);

    // The AI SDK's own spans: the model and the function id, and no prompt or output unless ATLAS_TRACE_CONTENT asks.
    const calls = named('ai.generateText.doGenerate');
    expect(calls.map((span) => [span.attributes['ai.model.id'], span.attributes['ai.telemetry.functionId']])).toEqual(Array(6).fill(['scripted', 'atlas.run']));
    expect(calls.some((span) => 'ai.prompt.messages' in span.attributes || 'ai.response.text' in span.attributes)).toBe(false);
  });

  it('ends the run span of a run the model failed as an error, with the cause, and of a classic run as kind classic', async () => {
    const index = createMemoryIndex(docs);
    const failing = createScriptedModel([{ toolCalls: [search('ORB-1202')] }]);
    const failed = await agenticRun('What is ORB-1202?', { model: failing, index, weakScore: 0, maxRetries: 0, tracing });
    expect(failed.trace.stopReason).toBe('error');
    const answer = { answer: { text: 'PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } };
    await classicAsk('What is ORB-1202?', { model: createScriptedModel([answer]), index, tracing });
    const runs = named('atlas.run');
    expect(runs.map((span) => [span.attributes['atlas.run.kind'], span.attributes['atlas.run.outcome'], span.attributes['atlas.run.stop_reason'], span.status, span.events.length])).toEqual([
      ['agentic', 'failed', 'error', { code: 2, message: failed.trace.errors.at(-1) }, 0],
      ['classic', 'answered', 'model-done', { code: 0 }, 0],
    ]);
    expect(failed.trace.errors.at(-1)).toBe('model call failed: scripted model: unexpected call 2 (only 1 turns scripted)');
    // Classic's one retrieval is a search span of the run, under the id the model is shown it with.
    expect(named('atlas.search').map((span) => [span.attributes['gen_ai.tool.call.id'], span.parentSpanContext?.spanId === runs[1]!.spanContext().spanId]).at(-1)).toEqual(['classic-retrieval', true]);
  });
});
