import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../../index/types.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { createOrbitIndex } from '../../testing/orbit-index.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { createOfflineModel } from '../../models/offline/model.ts';
import { parsePolicy } from './policy.ts';
import { classicAbstained, multiPartQuestion, routedAsk, weakRetrieval } from './route.ts';

const docs = [
  makeDoc('error-codes', 'all', [['Payload errors', 'ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.']]),
  makeDoc('scheduling', 'all', [['Scheduling', 'Cron schedules run in the scheduler process.']]),
];
const memory = createMemoryIndex(docs);
const goodAnswer = { answer: { text: 'PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } };
const search = (query: string) => ({ toolCalls: [{ toolName: 'search_docs', input: { query } }] });
/** A clock that moves 10 ms per reading, so latencies are exact. */
function tickingClock() {
  let now = 0;
  return () => (now += 10);
}

describe('routedAsk on scripted models', () => {
  it('route auto keeps a classic answer that passes every check: one model call, no agent', async () => {
    const model = createScriptedModel([goodAnswer]);
    const run = await routedAsk('What is ORB-1202?', { model, index: memory, route: 'auto', weakScore: 0 });
    expect(model.requests.map((request) => request.toolChoice?.type)).toEqual(['none']);
    expect(run.route).toBe('classic');
    expect(run.routeReason).toBe('classic passed every check (best score 3.00, 1 citation verified)');
    expect(run.escalatedFrom).toBeUndefined();
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['error-codes']);
  });

  it('escalates when classic abstains, and counts both passes in usage and latency', async () => {
    const model = createScriptedModel([{ answer: { text: '', citations: [], abstained: true } }, search('payload limit'), goodAnswer], { inputTokens: () => 100 });
    const run = await routedAsk('What is ORB-1202?', { model, index: memory, route: 'auto', weakScore: 0, now: tickingClock() });
    expect(run.route).toBe('agentic');
    expect(run.routeReason).toBe('escalated: classic abstained (the model abstained)');
    expect(run.escalatedFrom?.answer.abstained).toBe(true);
    expect(run.answer.abstained).toBe(false);
    expect(run.usage.modelCalls).toBe(3);
    expect(run.usage.inputTokens).toBe(300);
    expect(run.trace.calls).toHaveLength(2);
    expect(run.latencyMs).toBe(run.escalatedFrom!.latencyMs + 50);
  });

  it('shows event consumers one run: the kept answer, or one run-start and only the agent\'s answer', async () => {
    const kept: string[] = [];
    await routedAsk('What is ORB-1202?', { model: createScriptedModel([goodAnswer]), index: memory, weakScore: 0, onEvent: (event) => kept.push(event.type) });
    expect(kept).toEqual(['run-start', 'search-start', 'search-end', 'answer', 'run-end']);
    const escalated: string[] = [];
    const model = createScriptedModel([{ answer: { text: '', citations: [], abstained: true } }, search('payload limit'), goodAnswer]);
    const run = await routedAsk('What is ORB-1202?', {
      model,
      index: memory,
      weakScore: 0,
      onEvent: (event) => escalated.push(event.type === 'answer' ? `answer abstained=${event.answer.abstained}` : event.type),
    });
    expect(run.route).toBe('agentic');
    expect(escalated).toEqual(['run-start', 'search-start', 'search-end', 'search-start', 'search-end', 'answer abstained=false', 'run-end']);
  });

  it('escalates when a classic citation fails verification', async () => {
    const badQuote = { answer: { text: 'It is fine.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 is harmless' }, goodAnswer.answer.citations[0]!] } };
    const model = createScriptedModel([badQuote, search('ORB-1202'), goodAnswer]);
    const run = await routedAsk('What is ORB-1202?', { model, index: memory, route: 'auto', weakScore: 0 });
    expect(run.routeReason).toBe('escalated: 1 of 2 classic citations failed verification');
    expect(run.route).toBe('agentic');
  });

  it('escalates when the best classic score is below the weak threshold, or nothing matched', async () => {
    const weak = await routedAsk('What is ORB-1202?', { model: createScriptedModel([goodAnswer, search('x'), goodAnswer]), index: memory, weakScore: 3.5 });
    expect(weak.routeReason).toBe('escalated: classic best score 3.00 is below the weak threshold 3.5');
    const none = await routedAsk('zebra quantum', { model: createScriptedModel([goodAnswer, search('x'), goodAnswer]), index: memory, weakScore: 0, escalateWhen: [weakRetrieval()] });
    expect(none.routeReason).toBe('escalated: classic retrieval matched nothing');
  });

  it('judges the classic pass by its own retrieval, not by a policy\'s required search before it', async () => {
    const policy = parsePolicy('rules:\n  - name: codes\n    when: { terms: [zebra] }\n    require: { search: "ORB-1202 PayloadTooLarge" }\n', 'policy.yaml');
    const run = await routedAsk('zebra quantum', { model: createScriptedModel([goodAnswer, search('x'), goodAnswer]), index: memory, policy, escalateWhen: [weakRetrieval()] });
    expect(run.escalatedFrom?.trace.steps.map((step) => step.query)).toEqual(['ORB-1202 PayloadTooLarge', 'zebra quantum']);
    expect(run.routeReason).toBe('escalated: classic retrieval matched nothing');
  });

  it('escalates a question of several parts when the classic answer leaves a part unsaid, even on a strong match', async () => {
    const model = createScriptedModel([goodAnswer, search('payload'), goodAnswer]);
    const run = await routedAsk('Which error is ORB-1202 and what should the step return instead?', { model, index: memory, weakScore: 0 });
    expect(run.routeReason).toBe('escalated: the classic answer covers 67% of the terms of the part "Which error is ORB-1202"');
    const shape = await routedAsk('Which error is ORB-1202 and what should the step return instead?', {
      model: createScriptedModel([goodAnswer, search('payload'), goodAnswer]),
      index: memory,
      escalateWhen: [multiPartQuestion()],
    });
    expect(shape.routeReason).toBe('escalated: the question has 2 parts');
  });

  it('keeps a classic answer that speaks to every part of a two-part question', async () => {
    const covering = { answer: { text: 'ORB-1202 is the error PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } };
    const run = await routedAsk('What is ORB-1202 and which error is PayloadTooLarge?', { model: createScriptedModel([covering]), index: memory, weakScore: 0 });
    expect([run.route, run.routeReason]).toEqual(['classic', 'classic passed every check (best score 9.00, 1 citation verified)']);
  });

  it('takes custom checks; the first that fires names the reason', async () => {
    const model = createScriptedModel([goodAnswer, search('payload'), goodAnswer]);
    const always = () => 'always escalate';
    const run = await routedAsk('What is ORB-1202?', { model, index: memory, weakScore: 0, escalateWhen: [classicAbstained(), always, weakRetrieval()] });
    expect(run.routeReason).toBe('escalated: always escalate');
    expect(multiPartQuestion()({ question: 'What is ORB-1202?', classic: run.escalatedFrom!, weakScore: 0 })).toBeUndefined();
  });

  it('routes classic and agentic as asked, without checks', async () => {
    const abstains = { answer: { text: '', citations: [], abstained: true } };
    const classic = await routedAsk('What is ORB-1202?', { model: createScriptedModel([abstains]), index: memory, route: 'classic' });
    expect([classic.route, classic.routeReason, classic.answer.abstained]).toEqual(['classic', 'route classic was asked for', true]);
    const model = createScriptedModel([search('payload'), goodAnswer]);
    const agentic = await routedAsk('What is ORB-1202?', { model, index: memory, route: 'agentic' });
    expect([agentic.route, agentic.routeReason, model.requests.length]).toEqual(['agentic', 'route agentic was asked for', 2]);
  });

  it('gives the agent only what the classic pass left of the deadline', async () => {
    // Each clock reading moves 10 ms: classic takes 30 ms of the 45, so the agent's deadline is 15 ms: its first
    // call (the search) starts 10 ms in, its second 30 ms in, past the deadline (with 45 ms it would have answered).
    const model = createScriptedModel([{ answer: { text: '', citations: [], abstained: true } }, search('payload'), goodAnswer]);
    const run = await routedAsk('What is ORB-1202?', { model, index: memory, weakScore: 0, deadlineMs: 45, now: tickingClock() });
    expect(run.route).toBe('agentic');
    expect(run.trace.stopReason).toBe('deadline');
    expect(model.requests).toHaveLength(2);
  });

  it('refuses an unknown route and a bad classicK, naming the value and the fix', async () => {
    const model = createScriptedModel([]);
    await expect(routedAsk('q', { model, index: memory, route: 'fast' as never })).rejects.toThrow(
      'Atlas: route must be one of classic, agentic, auto, got "fast". Pass e.g. route: \'auto\'.',
    );
    await expect(routedAsk('q', { model, index: memory, classicK: 0 })).rejects.toThrow(
      'Atlas: classicK must be a positive whole number of passages, got 0. Pass e.g. classicK: 15.',
    );
  });
});

describe('routedAsk auto on Orbit with the offline planner', () => {
  let index: IndexBackend;
  beforeAll(async () => {
    index = await createOrbitIndex();
  });
  afterAll(async () => {
    await index.close();
  });

  it('answers a plain exact-term lookup from classic', async () => {
    const run = await routedAsk('What is ORB-1202?', { model: createOfflineModel(), index });
    expect(run.route).toBe('classic');
    expect(run.routeReason).toMatch(/^classic passed every check \(best score \d+\.\d\d, \d+ citations? verified\)$/);
    expect(run.answer.citations[0]?.docId).toBe('error-codes');
  });

  it('escalates the README multi-hop question to the agent when classic\'s answer leaves a part of it uncovered', async () => {
    const question = 'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';
    const run = await routedAsk(question, { model: createOfflineModel(), index });
    expect(run.route).toBe('agentic');
    // Classic's one search answers, but in the docs' words ("a large value", "after it has done all
    // its work"), which hold under half of the first part's own terms: the route check hands it on.
    expect(run.routeReason).toBe('escalated: the classic answer covers 44% of the terms of the part "A flow step that returns a big query result fails after finishing its work"');
    expect(run.escalatedFrom?.trace.steps).toHaveLength(1);
    expect(run.escalatedFrom?.answer.abstained).toBe(false);
    // The agent reads the passages of its first search, which state the answer: it searches no more.
    expect(run.trace.steps).toHaveLength(1);
    expect(run.answer.text).toContain('fails with `ORB-1202 PayloadTooLarge`');
    expect(run.answer.text).toContain('Return a reference instead');
  });
});
