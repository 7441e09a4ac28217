// A conversation turn is a span over its run: the conversation's id, how many turns came before,
// and whether the turn was stored.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it } from 'vitest';
import { createTracing } from '../telemetry/sdk-tracing.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { askInConversation } from './ask.ts';
import { openConversationStore } from './sqlite-store.ts';

const exporter = new InMemorySpanExporter();
const tracing = createTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)], serviceVersion: 'test' });
afterAll(() => tracing.shutdown());

describe('askInConversation spans', () => {
  it('puts each turn\'s run under an atlas.conversation.turn span', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atlas-turn-spans-'));
    const store = openConversationStore({ path: path.join(dir, 'state.db'), randomId: () => 'conversation-1', now: () => 0 });
    try {
      const index = createMemoryIndex([makeDoc('error-codes', 'all', [['Payload errors', 'ORB-1202 PayloadTooLarge: the result exceeded max_payload_kb.']])]);
      const answer = { answer: { text: 'PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } };
      const model = createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202' } }] }, answer, { toolCalls: [{ toolName: 'search_docs', input: { query: 'max_payload_kb' } }] }, answer]);
      const { id } = await store.create({});
      await askInConversation(store, id, 'What is ORB-1202?', undefined, { model, index, tracing, route: 'agentic' });
      await askInConversation(store, id, 'and its limit?', undefined, { model, index, tracing, route: 'agentic' });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
    const spans = exporter.getFinishedSpans();
    const turns = spans.filter((span) => span.name === 'atlas.conversation.turn');
    expect(turns.map((span) => span.attributes)).toEqual([
      { 'atlas.conversation.id': 'conversation-1', 'atlas.conversation.earlier_turns': 0, 'atlas.conversation.turn_saved': true },
      { 'atlas.conversation.id': 'conversation-1', 'atlas.conversation.earlier_turns': 1, 'atlas.conversation.turn_saved': true },
    ]);
    const runs = spans.filter((span) => span.name === 'atlas.run');
    expect(runs.map((span) => [span.parentSpanContext?.spanId, span.attributes['atlas.run.question']])).toEqual([
      [turns[0]!.spanContext().spanId, 'What is ORB-1202?'],
      [turns[1]!.spanContext().spanId, 'and its limit?'],
    ]);
  });
});
