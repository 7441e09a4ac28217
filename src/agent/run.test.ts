import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel, type ScriptedTurn } from '../testing/scripted-model.ts';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { ABSTAIN_TEXT } from './trust/answer.ts';
import { agenticRun } from './run.ts';
import { classicAsk } from './classic.ts';

const docs = [
  makeDoc('flows', 'all', [
    ['Flows', 'A flow is a graph of steps.'],
    ['Step results', 'A step whose return value exceeds the payload limit fails with ORB-1202 after it ran.'],
  ]),
  makeDoc('error-codes', 'all', [
    ['Error codes', 'Every Orbit error has a code.'],
    ['Payload errors', 'ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.'],
  ]),
  makeDoc('leases-2x', '2.x', [['Leases in 2.x', 'The lease timeout is ORBIT_LEASE_TIMEOUT in seconds.']]),
  makeDoc('leases-3x', '3.x', [['Leases in 3.x', 'The lease is set by [worker] lease_seconds.']]),
  makeDoc('scheduling', 'all', [['Scheduling', 'Cron schedules run in the scheduler process.']]),
];

const search = (query: string, extra: Record<string, unknown> = {}) => ({ toolName: 'search_docs', input: { query, ...extra } });
const toolChoices = (requests: LanguageModelV3CallOptions[]) => requests.map((request) => request.toolChoice?.type);
/** The tool-result parts the model received in request `n` (0-based). */
function toolResultsOf(request: LanguageModelV3CallOptions | undefined) {
  return (request?.prompt ?? []).flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
}
/** A reply that abstains with "no direct answer" and names `closest` passages. */
const abstainingWith = (closest: Array<{ doc_id: string; sentences: string[] }>): ScriptedTurn => ({
  text: JSON.stringify({ text: '', citations: [], abstained: true, abstain_reason: 'no direct answer', closest }),
});
const answerWhenForced =
  (fallback: ScriptedTurn): ScriptedTurn =>
  (request) =>
    request.toolChoice?.type === 'none'
      ? { answer: { text: 'Forced.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } }
      : fallback;

describe('agenticRun', () => {
  it('keeps the closest passages of an abstention whose sentences it verifies, located, and drops a sentence the run never saw', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('ORB-1202')] },
      abstainingWith([
        { doc_id: 'error-codes', sentences: ['ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.', 'A sentence no passage holds.'] },
        { doc_id: 'scheduling', sentences: ['Cron schedules run in the scheduler process.'] },
      ]),
    ]);
    const run = await agenticRun('How big may a result be?', { model, index: createMemoryIndex(docs), weakScore: 0 });
    expect(run.answer.text).toBe("I couldn't find a direct answer in the docs.");
    expect(run.answer.abstained).toBe(true);
    expect(run.trace.abstainReason).toBe('the model abstained: no direct answer');
    expect(run.answer.closest?.map((passage) => [passage.chunkId, passage.heading, passage.sentences])).toEqual([
      ['error-codes#1', 'Payload errors', ['ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.']],
    ]);
  });

  it('locates a closest passage at the lines its sentences span, an example a sentence introduces included', async () => {
    const cron = makeDoc('cron', 'all', [['Crontab', 'Schedules are in UTC.\n\nThe following runs a task every Monday:\n\n```\n30 4 * * 1 send_weekly_email\n```']]);
    const example = 'The following runs a task every Monday:\n\n```\n30 4 * * 1 send_weekly_email\n```';
    const model = createScriptedModel([
      { toolCalls: [search('weekly task')] },
      { text: JSON.stringify({ text: '', citations: [], abstained: true, abstain_reason: 'no direct answer', closest: [{ doc_id: 'cron', sentences: [example, 'Schedules are in UTC.'] }] }) },
    ]);
    const run = await agenticRun('How do I run a task weekly?', { model, index: createMemoryIndex([cron]), weakScore: 0 });
    expect(run.answer.closest?.map((passage) => [passage.chunkId, passage.startLine, passage.endLine, passage.sentences])).toEqual([['cron#0', 2, 7, [example, 'Schedules are in UTC.']]]);
  });

  describe('closestModel names the closest passages a model did not', () => {
    const payload = 'ORB-1202 PayloadTooLarge: the result exceeded [limits] max_payload_kb.';
    const closestModel = () =>
      createScriptedModel([
        abstainingWith([
          { doc_id: 'error-codes', sentences: [payload] },
          { doc_id: 'scheduling', sentences: ['Cron schedules run in the scheduler process.'] },
        ]),
      ]);

    it('shows the passages closestModel names, verified, when the model abstains without any: asked once, after the run, for its final answer', async () => {
      const model = createScriptedModel([{ toolCalls: [search('ORB-1202')] }, { answer: { text: '', citations: [], abstained: true } }]);
      const closest = closestModel();
      const run = await agenticRun('How big may a result be?', { model, closestModel: closest, index: createMemoryIndex(docs), weakScore: 0 });
      // "scheduling" was never shown to the run: its sentence does not verify, and the passage is left out.
      expect([run.answer.abstained, run.answer.text, run.answer.closest?.map((passage) => [passage.chunkId, passage.sentences])]).toEqual([
        true,
        "I couldn't find a direct answer in the docs.",
        [['error-codes#1', [payload]]],
      ]);
      expect([run.trace.abstainReason, run.trace.closestBy, run.usage.modelCalls]).toEqual(['the model abstained', 'closest-model', 2]);
      expect(toolChoices(closest.requests)).toEqual(['none']);
      // It reads the run's own conversation: the question and the search it was shown.
      expect(toolResultsOf(closest.requests[0]).map((part) => part.toolName)).toEqual(['search_docs']);
    });

    it('shows them when no citation of an answer verifies', async () => {
      const model = createScriptedModel([{ toolCalls: [search('ORB-1202')] }, { answer: { text: 'It is 64 MB.', citations: [{ doc_id: 'flows', quote: 'Results may be 64 MB.' }] } }]);
      const run = await agenticRun('How big may a result be?', { model, closestModel: closestModel(), index: createMemoryIndex(docs), weakScore: 0 });
      expect([run.answer.abstained, run.trace.abstainReason, run.answer.closest?.map((passage) => passage.chunkId)]).toEqual([true, 'no citation could be verified', ['error-codes#1']]);
    });

    it('is not asked when the model named verified closest passages, answered, or failed', async () => {
      const named = createScriptedModel([
        { toolCalls: [search('ORB-1202')] },
        { text: JSON.stringify({ text: '', citations: [], abstained: true, closest: [{ doc_id: 'error-codes', sentences: [payload] }] }) },
      ]);
      const answering = createScriptedModel([{ toolCalls: [search('ORB-1202')] }, { answer: { text: 'ORB-1202.', citations: [{ doc_id: 'error-codes', quote: payload }] } }]);
      const failing = createScriptedModel([{ toolCalls: [search('ORB-1202')] }]);
      for (const model of [named, answering, failing]) {
        const closest = closestModel();
        const run = await agenticRun('How big may a result be?', { model, closestModel: closest, index: createMemoryIndex(docs), weakScore: 0, maxRetries: 0 });
        expect([closest.requests.length, run.trace.closestBy]).toEqual([0, undefined]);
      }
    });

    it('leaves the plain abstention, noted in the errors, when closestModel fails', async () => {
      const model = createScriptedModel([{ toolCalls: [search('ORB-1202')] }, { answer: { text: '', citations: [], abstained: true } }]);
      const run = await agenticRun('How big may a result be?', { model, closestModel: createScriptedModel([]), index: createMemoryIndex(docs), weakScore: 0 });
      expect([run.answer.text, run.answer.closest, run.trace.errors]).toEqual([
        ABSTAIN_TEXT,
        undefined,
        ['closest passages not named: model call failed: scripted model: unexpected call 1 (only 0 turns scripted)'],
      ]);
    });
  });

  it('stops on no new evidence when the same query repeats, with a forced final answer', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('payload limit')] },
      { toolCalls: [search('payload limit')] },
      { toolCalls: [search('Payload  LIMIT')] },
      { answer: { text: 'ORB-1202.', citations: [{ doc_id: 'flows', quote: 'fails with ORB-1202 after it ran' }] } },
    ]);
    const run = await agenticRun('What fails?', { model, index: createMemoryIndex(docs), weakScore: 0 });
    expect(toolChoices(model.requests)).toEqual(['required', 'auto', 'auto', 'none']);
    expect(run.trace.toolChoices).toEqual(['required', 'auto', 'auto', 'none']);
    expect(run.trace.stopReason).toBe('no-new-evidence');
    expect(run.trace.steps.map((step) => step.note)).toEqual([undefined, 'duplicate-query', 'duplicate-query']);
    const duplicateResult = toolResultsOf(model.requests[2]).at(-1);
    expect(duplicateResult?.output).toEqual({
      type: 'json',
      value: { results: [], note: 'duplicate query: search for what is still missing, or ask for page 2 of it.' },
    });
    expect(run.answer.abstained).toBe(false);
  });

  it('forces a final answer when the search budget is used up', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('flow steps')] },
      { toolCalls: [search('error codes')] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ]);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs), maxSearches: 2 });
    expect(toolChoices(model.requests)).toEqual(['required', 'auto', 'none']);
    expect(run.trace.stopReason).toBe('search-budget');
    expect(run.usage.modelCalls).toBe(3);
  });

  it('never shows a 2.x-only page in a 3.x run, whatever version the model asks for', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('lease timeout seconds', { version: '2.x' }), { toolName: 'read_section', input: { chunk_id: 'leases-2x#0' } }] },
      { answer: { text: 'lease_seconds', citations: [{ doc_id: 'leases-3x', quote: 'The lease is set by [worker] lease_seconds.' }] } },
    ]);
    const run = await agenticRun('How do I set the lease?', { model, index: createMemoryIndex(docs), filter: { version: '3.x' } });
    expect(run.trace.steps[0]?.docIds).toEqual(['leases-3x']);
    expect(run.trace.steps[0]?.filter).toEqual({ version: '3.x' });
    const [searchResult, readResult] = toolResultsOf(model.requests[1]);
    expect(JSON.stringify(searchResult?.output)).not.toContain('leases-2x');
    expect(readResult?.output).toEqual({
      type: 'error-text',
      value: 'chunk not found: leases-2x#0. Use a chunk_id returned by search_docs.',
    });
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['leases-3x']);
  });

  it('drops a quote the run never read, keeps the verified one with its location', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('ORB-1202 payload')] },
      {
        answer: {
          text: 'PayloadTooLarge.',
          citations: [
            { doc_id: 'error-codes', quote: 'ORB-1202 **PayloadTooLarge**: the result exceeded [limits] max_payload_kb.' },
            { doc_id: 'scheduling', quote: 'Cron schedules run in the scheduler process.' },
          ],
        },
      },
    ]);
    const run = await agenticRun('What is ORB-1202?', { model, index: createMemoryIndex(docs) });
    expect(run.answer.citations).toEqual([
      {
        docId: 'error-codes',
        quote: 'ORB-1202 **PayloadTooLarge**: the result exceeded [limits] max_payload_kb.',
        chunkId: 'error-codes#1',
        heading: 'Payload errors',
        headingPath: ['Error codes', 'Payload errors'],
        sourcePath: 'error-codes.md',
        startLine: 4,
        endLine: 4,
      },
    ]);
    expect(run.trace.droppedCitations).toEqual([
      { docId: 'scheduling', quote: 'Cron schedules run in the scheduler process.', reason: 'doc "scheduling" was never seen or read in this run' },
    ]);
  });

  it('abstains with the fixed text when no citation verifies', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('flow steps')] },
      { answer: { text: 'Made up.', citations: [{ doc_id: 'flows', quote: 'Flows are executed on the moon.' }] } },
    ]);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs) });
    expect(run.answer).toEqual({ text: ABSTAIN_TEXT, citations: [], abstained: true });
    expect(run.trace.abstainReason).toBe('no citation could be verified');
    expect(run.trace.droppedCitations[0]?.reason).toBe('quote does not occur in the passages of "flows" that this run saw or read');
  });

  it('answers every over-budget parallel call in the same turn', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('flows'), search('leases'), search('scheduling')] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ]);
    const run = await agenticRun('Tell me everything', { model, index: createMemoryIndex(docs), maxSearches: 1 });
    const results = toolResultsOf(model.requests[1]);
    expect(results.map((part) => [part.toolCallId, part.output.type])).toEqual([
      ['call-1-1', 'json'],
      ['call-1-2', 'error-text'],
      ['call-1-3', 'error-text'],
    ]);
    expect(results[1]?.output).toEqual({
      type: 'error-text',
      value: 'search budget exhausted (1 searches used): answer now from the passages you have.',
    });
    expect(toolChoices(model.requests)).toEqual(['required', 'none']);
    expect(run.trace.stopReason).toBe('search-budget');
  });

  it('returns malformed arguments and unknown tools as error results naming the field, and records each in trace.errors', async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'search_docs', input: '{"query": "flows' },
          { toolName: 'delete_index', input: {} },
          { toolName: 'read_section', input: { chunk: 'flows#0' } },
        ],
      },
      { toolCalls: [search('flow graph')] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ]);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs) });
    const badJson = 'invalid arguments for search_docs: the arguments must be a JSON object, got text "{\\"query\\": \\"flows" (is it valid JSON?). Send e.g. {"query": "lease timeout"}.';
    const unknown = 'unknown tool "delete_index". Available tools: search_docs, read_section, read_neighbors.';
    const missing =
      'invalid arguments for read_section: chunk_id: expected a string (A chunk_id returned by search_docs, e.g. "flows#3"), got nothing (it is required). Send e.g. {"chunk_id": "flows#2"}.';
    expect(toolResultsOf(model.requests[1]).map((part) => part.output)).toEqual([
      { type: 'error-text', value: badJson },
      { type: 'error-text', value: unknown },
      { type: 'error-text', value: missing },
    ]);
    expect(run.trace.errors).toEqual([
      `tool call rejected: search_docs {"query": "flows: ${badJson}`,
      `tool call rejected: delete_index {}: ${unknown}`,
      `tool call rejected: read_section {"chunk":"flows#0"}: ${missing}`,
    ]);
    expect(run.answer.abstained).toBe(false);
  });

  it('runs a call with an argument its tool does not take, telling the model and the trace what was ignored', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'flow graph', k: 50 } }] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ]);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs) });
    const note = 'ignored unknown argument k: search_docs takes query, version, page';
    const [result] = toolResultsOf(model.requests[1]);
    expect(result?.output).toMatchObject({ type: 'json', value: { ignored_arguments: note } });
    expect(run.trace.steps.map((step) => step.query)).toEqual(['flow graph']);
    expect(run.trace.errors).toEqual([`tool call arguments ignored: search_docs {"query":"flow graph","k":50}: ${note}`]);
    expect(run.answer.abstained).toBe(false);
  });

  it('runs a search whose optional version is null (OpenAI strict mode) as a search of every version', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('lease timeout', { version: null })] },
      { answer: { text: 'Seconds.', citations: [{ doc_id: 'leases-2x', quote: 'The lease timeout is ORBIT_LEASE_TIMEOUT in seconds.' }] } },
    ]);
    const run = await agenticRun('What is the lease timeout?', { model, index: createMemoryIndex(docs) });
    expect(run.trace.steps.map((step) => [step.query, step.filter])).toEqual([['lease timeout', {}]]);
    expect(run.trace.errors).toEqual([]);
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['leases-2x']);
  });

  it('ends a model that never stops on the step cap, with an answer', async () => {
    let n = 0;
    const endless: ScriptedTurn = () => ({ toolCalls: [search(`query number ${++n} flows`)] });
    const model = createScriptedModel(Array.from({ length: 4 }, () => answerWhenForced(endless)));
    const run = await agenticRun('Loop forever', { model, index: createMemoryIndex(docs), maxSteps: 4, stopWhen: [] });
    expect(toolChoices(model.requests)).toEqual(['required', 'auto', 'auto', 'none']);
    expect(run.trace.stopReason).toBe('max-steps');
    expect(run.answer.text).toBe('Forced.');
  });

  it('repairs malformed output once, then abstains with the reason in the trace', async () => {
    const model = createScriptedModel([
      { toolCalls: [search('flows')] },
      { text: 'Sure! Flows are graphs.' },
      { text: '{"text": 3}' },
    ]);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs) });
    expect(toolChoices(model.requests)).toEqual(['required', 'auto', 'none']);
    expect(run.answer.abstained).toBe(true);
    expect(run.trace.errors[1]).toBe('repair attempted');
    expect(run.trace.abstainReason?.startsWith('no usable answer: the reply was not a valid answer object')).toBe(true);
  });

  it('keeps two concurrent runs apart', async () => {
    const index = createMemoryIndex(docs);
    const script = (): ScriptedTurn[] => [
      { toolCalls: [search('flow steps graph')] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ];
    const [first, second] = await Promise.all([
      agenticRun('What is a flow?', { model: createScriptedModel(script()), index }),
      agenticRun('What is a flow?', { model: createScriptedModel(script()), index }),
    ]);
    expect(first.trace.steps).toEqual(second.trace.steps);
    expect(first.trace.steps[0]?.skippedSeen).toBe(0);
    expect(second.answer.citations).toHaveLength(1);
  });

  it('emits events in order', async () => {
    const events: string[] = [];
    const model = createScriptedModel([
      { toolCalls: [search('flows'), { toolName: 'read_section', input: { chunk_id: 'flows#1' } }] },
      { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
    ]);
    await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs), onEvent: (event) => events.push(event.type) });
    expect(events).toEqual(['run-start', 'search-start', 'search-end', 'read', 'answer', 'run-end']);
  });

  it('sums usage and leaves cost unknown without a price', async () => {
    const model = createScriptedModel(
      [
        { toolCalls: [search('flows')] },
        { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
      ],
      { inputTokens: () => 100 },
    );
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs) });
    expect(run.usage.inputTokens).toBe(200);
    expect(run.usage.costUsd).toBeNull();
    const priced = await agenticRun('What is a flow?', {
      model: createScriptedModel(
        [
          { toolCalls: [search('flows')] },
          { answer: { text: 'A graph.', citations: [{ doc_id: 'flows', quote: 'A flow is a graph of steps.' }] } },
        ],
        { inputTokens: () => 1_000_000 },
      ),
      index: createMemoryIndex(docs),
      price: { input: 0.25, output: 0 },
    });
    expect(priced.usage.costUsd).toBe(0.5);
  });
});

describe('run limits', () => {
  it('stops at the run deadline by the injected clock, before a call that would start past it', async () => {
    let clock = 0;
    const slowTurn = (turn: ScriptedTurn): ScriptedTurn => () => {
      clock += 200_000;
      return turn;
    };
    const model = createScriptedModel([slowTurn({ toolCalls: [search('flows')] }), slowTurn({ toolCalls: [search('payload limit')] })]);
    const run = await agenticRun('What fails?', { model, index: createMemoryIndex(docs), now: () => clock, deadlineMs: 300_000, weakScore: 0 });
    expect(model.requests).toHaveLength(2);
    expect(run.trace.stopReason).toBe('deadline');
    expect(run.trace.errors).toEqual(['run deadline of 300 s reached at model call 3']);
    expect(run.trace.calls.map((call) => call.outcome)).toEqual(['tool-calls', 'tool-calls', 'failed']);
    expect([run.answer.abstained, run.trace.abstainReason]).toEqual([true, 'no usable answer: run deadline of 300 s reached at model call 3']);
  });

  it('names the per-call timeout when its signal fires, also on a forced final answer', async () => {
    const model = createScriptedModel([{ toolCalls: [search('flows')] }]);
    let calls = 0;
    const timeoutSignal = (ms: number) => (++calls === 2 ? AbortSignal.abort(new DOMException(`${ms} ms`, 'TimeoutError')) : new AbortController().signal);
    const run = await agenticRun('What is a flow?', { model, index: createMemoryIndex(docs), callTimeoutMs: 30_000, timeoutSignal, maxSteps: 2 });
    expect(model.requests).toHaveLength(1);
    expect(run.trace.toolChoices).toEqual(['required', 'none']);
    expect(run.trace.stopReason).toBe('timeout');
    expect(run.trace.errors).toEqual(['model call 2 timed out after 30 s (per-call timeout, retries included)']);
  });
});

describe('classicAsk', () => {
  it('retrieves once, makes one forced call, and checks citations the same way', async () => {
    const model = createScriptedModel([
      { answer: { text: 'PayloadTooLarge.', citations: [{ doc_id: 'error-codes', quote: 'ORB-1202 PayloadTooLarge' }] } },
    ]);
    const run = await classicAsk('ORB-1202 payload', { model, index: createMemoryIndex(docs), k: 2 });
    expect(toolChoices(model.requests)).toEqual(['none']);
    expect(run.trace.steps).toHaveLength(1);
    expect(run.trace.evidence.map((item) => item.chunkId)).toEqual(['error-codes#1', 'flows#1']);
    expect(run.answer.citations[0]?.chunkId).toBe('error-codes#1');
  });
});

describe('direct answers', () => {
  it('keeps an uncited reply only when the first turn allowed answering without search', async () => {
    const direct = { text: 'Hello! Ask me about the docs.', citations: [] };
    const allowed = await agenticRun('hi', { model: createScriptedModel([{ answer: direct }]), index: createMemoryIndex(docs), firstTurn: 'auto' });
    // A direct reply cites nothing, so none of its claims is backed by a quote (agent/trust/claims.ts).
    expect(allowed.answer).toEqual({
      text: 'Hello! Ask me about the docs.',
      citations: [],
      abstained: false,
      claims: [
        { text: 'Hello!', supported: false, score: 0, citations: [] },
        { text: 'Ask me about the docs.', supported: false, score: 0, citations: [] },
      ],
    });
    const required = await agenticRun('hi', {
      model: createScriptedModel([{ answer: direct }, { answer: direct }]),
      index: createMemoryIndex(docs),
    });
    expect(required.answer.abstained).toBe(true);
    expect(required.trace.errors[0]).toBe('the model violated tool choice "required"');
  });
});

