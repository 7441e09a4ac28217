import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../../index/types.ts';
import { agenticRun } from '../../agent/run.ts';
import { createOrbitIndex } from '../../testing/orbit-index.ts';
import type { AgentRun } from '../../agent/run-types.ts';
import { createOfflineModel } from './model.ts';

const FLAGSHIP =
  'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';

let index: IndexBackend;

beforeAll(async () => {
  index = await createOrbitIndex();
});

afterAll(async () => {
  await index.close();
});

/** The run without its timings, which are the only part allowed to differ between runs. */
function withoutTimings(run: AgentRun) {
  return { ...run, latencyMs: 0, trace: { ...run.trace, calls: run.trace.calls.map((call) => ({ ...call, latencyMs: 0 })) } };
}

describe('offline planner through the real loop and the sqlite index', () => {
  it('answers the README question after one search: the passages it read state the answer, so it searches no more', async () => {
    const run = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    expect(run.trace.steps.map((step) => [step.query, step.page, step.chunkIds])).toEqual([
      [FLAGSHIP, undefined, ['api-results#3', 'flows#2', 'troubleshooting-memory#4', 'error-codes#4', 'api-flow#6']],
    ]);
    // "big" and "finishing" are the asker's words; the docs say "a large value" and "after it has
    // done all its work" (related-terms.ts), and "query" is in the example the second sentence
    // introduces: the sentences and their headings hold the question, so the planner answers.
    // flows#2's "A step whose return value is larger than the payload limit fails with `ORB-1202
    // PayloadTooLarge`." says the first sentence again (3 of its 10 words are new): left out.
    expect(run.answer.text).toBe(
      'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. [1] Return a reference instead, and let the downstream step load it. [2]',
    );
    expect(run.answer.citations.map((citation) => [citation.chunkId, citation.quote])).toEqual([
      ['api-results#3', 'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work.'],
      ['api-results#3', 'Return a reference instead, and let the downstream step load it:'],
    ]);
    expect(run.trace.droppedCitations).toEqual([]);
  });

  it('searches what it learned when told to read on: the error code it read is its second search, then the question\'s page 2', async () => {
    const run = await agenticRun(FLAGSHIP, { model: createOfflineModel({ planner: { stopWhenStated: false } }), index });
    expect(run.trace.steps.map((step) => [step.query, step.page, step.chunkIds])).toEqual([
      [FLAGSHIP, undefined, ['api-results#3', 'flows#2', 'troubleshooting-memory#4', 'error-codes#4', 'api-flow#6']],
      ['ORB-1202 step return instead', undefined, ['faq#10', 'troubleshooting-stuck-jobs#5', 'api-flow#3', 'results-backend#5', 'retries#3']],
      [FLAGSHIP, 2, ['api-job#7', 'flows#0', 'api-flow#0', 'api-results#0', 'concepts-jobs#7']],
    ]);
    expect(run.answer.citations.map((citation) => citation.chunkId)).toEqual(['api-results#3', 'api-results#3', 'api-flow#3']);
    expect(run.trace.droppedCitations).toEqual([]);
  });

  it('is deterministic: two runs give identical traces and answers', async () => {
    const first = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    const second = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    expect(withoutTimings(second)).toEqual(withoutTimings(first));
  });

  it('sets the version filter from the question and shows no page of the other release line', async () => {
    const run = await agenticRun('Which setting controls how long a worker holds a job in Orbit 3?', {
      model: createOfflineModel(),
      index,
    });
    expect(run.trace.steps.map((step) => step.filter)).toEqual([{ version: '3.x' }, { version: '3.x' }, { version: '3.x' }]);
    // The configuration reference is seen, but its row for the 3.x lease setting ("`lease_seconds`
    // ... Lease duration of a job.") shares few of the question's words (no "controls", "worker",
    // "holds", "long"); the best sentence found holds 2/3 of them, under the 90% a direct answer
    // needs: no answer, and the closest passages (the passages ranked highest weigh most) come from
    // pages of 3.x and of every release line, never 2.x.
    expect(run.answer).toMatchObject({ text: "I couldn't find a direct answer in the docs.", citations: [], abstained: true });
    const closest = run.answer.closest ?? [];
    expect(closest.map((passage) => passage.chunkId)).toEqual(['config-reference-3x#1', 'toml-config#3', 'security#1']);
    const chunks = await Promise.all(closest.map((passage) => index.getChunk(passage.chunkId)));
    expect(chunks.map((chunk) => chunk?.appliesTo)).toEqual(['3.x', '3.x', 'all']);
  });

  it('abstains when the docs do not cover the question', async () => {
    const run = await agenticRun('Does Orbit support Apache Kafka as a broker?', { model: createOfflineModel(), index });
    expect(run.answer.abstained).toBe(true);
    expect(run.answer.text).toBe("I couldn't find this in the docs.");
  });

  it('answers a greeting directly when the first turn may skip searching', async () => {
    const run = await agenticRun('hi there!', { model: createOfflineModel(), index, firstTurn: 'auto' });
    expect(run.trace.steps).toEqual([]);
    expect(run.answer.abstained).toBe(false);
    expect(run.trace.toolChoices).toEqual(['auto']);
  });
});
