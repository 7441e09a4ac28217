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
  it('answers the motivating question in full (the error and what to return instead) from the question\'s 15 best passages', async () => {
    const run = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    // No name to hop with: the second and third searches are the question's pages 2 and 3.
    expect(run.trace.steps.map((step) => [step.query === FLAGSHIP, step.page, step.chunkIds.length])).toEqual([
      [true, undefined, 5],
      [true, 2, 5],
      [true, 3, 5],
    ]);
    expect(run.trace.rankedDocIds).toEqual(expect.arrayContaining(['flows', 'error-codes', 'api-results']));
    expect(run.answer.abstained).toBe(false);
    expect(run.answer.text).toContain('ORB-1202');
    expect(run.answer.text).toContain('Return a reference instead');
    expect(run.trace.droppedCitations).toEqual([]);
    expect(run.answer.citations.length).toBeGreaterThan(0);
    for (const citation of run.answer.citations) expect(run.trace.rankedDocIds).toContain(citation.docId);
  });

  it('is deterministic: two runs give identical traces and answers', async () => {
    const first = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    const second = await agenticRun(FLAGSHIP, { model: createOfflineModel(), index });
    expect(withoutTimings(second)).toEqual(withoutTimings(first));
  });

  it('sets the version filter from the question and cites no page of the other release line', async () => {
    const run = await agenticRun('Which setting controls how long a worker holds a job in Orbit 3?', {
      model: createOfflineModel(),
      index,
    });
    expect(run.trace.steps[0]?.filter).toEqual({ version: '3.x' });
    const cited = await Promise.all(run.answer.citations.map((citation) => index.getChunk(citation.chunkId)));
    expect(cited.map((chunk) => chunk?.appliesTo).filter((line) => line === '2.x')).toEqual([]);
    expect(run.answer.abstained).toBe(false);
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
