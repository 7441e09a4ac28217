import { describe, expect, it } from 'vitest';
import { abstention } from '../trust/answer.ts';
import type { AgentRun } from '../run-types.ts';
import { withWebFallback, type WebFallbackOptions } from './web-fallback.ts';
import type { WebOptions } from './web.ts';

const web: WebOptions = { allowedDomains: ['python.org'], tools: {} };

/** A finished run with only what the fallback reads; the rest of the trace is empty. */
function finishedRun(options: { abstained: boolean; stopReason?: AgentRun['trace']['stopReason']; abstainReason?: string; costUsd?: number | null; latencyMs?: number }): AgentRun {
  return {
    question: 'q',
    answer: options.abstained ? abstention() : { text: 'yes', citations: [], abstained: false },
    trace: {
      steps: [], reads: [], evidence: [], rankedDocIds: [], toolChoices: [], calls: [], droppedCitations: [], errors: [],
      stopReason: options.stopReason ?? 'model-done',
      ...(options.abstainReason ? { abstainReason: options.abstainReason } : {}),
    },
    usage: { modelCalls: 2, inputTokens: 100, outputTokens: 10, costUsd: options.costUsd === undefined ? 0.001 : options.costUsd },
    latencyMs: options.latencyMs ?? 50,
  };
}

describe('withWebFallback', () => {
  it('asks once without the web when the docs answer', async () => {
    const asked: Array<{ web: boolean }> = [];
    const run = await withWebFallback('q', { web }, async (_question, options) => {
      asked.push({ web: options.web !== undefined });
      return finishedRun({ abstained: false });
    });
    expect(asked).toEqual([{ web: false }]);
    expect(run.trace.web).toEqual({ allowedDomains: ['python.org'], offered: false, reason: 'web fallback not needed: the docs-only run answered', searches: 0, sources: [] });
  });

  it('asks again with the web, the reason and what is left of the deadline when the docs-only run abstains', async () => {
    const asked: Array<{ web: boolean; deadlineMs?: number; webReason?: string }> = [];
    const runs = [finishedRun({ abstained: true, abstainReason: 'the model abstained', latencyMs: 1000 }), { ...finishedRun({ abstained: false, costUsd: 0.011 }), usage: { modelCalls: 2, inputTokens: 300, outputTokens: 30, costUsd: 0.011, webSearches: 1 } }];
    const run = await withWebFallback('q', { web, deadlineMs: 10_000 } as WebFallbackOptions, async (_question, options) => {
      asked.push({ web: options.web !== undefined, ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }), ...(options.webReason ? { webReason: options.webReason } : {}) });
      return runs[asked.length - 1] as AgentRun;
    });
    expect(asked).toEqual([
      { web: false, deadlineMs: 10_000 },
      { web: true, deadlineMs: 9_000, webReason: 'web fallback: the docs-only run abstained (the model abstained)' },
    ]);
    expect(run.usage).toEqual({ modelCalls: 4, inputTokens: 400, outputTokens: 40, costUsd: 0.012, webSearches: 1 });
    expect(run.latencyMs).toBe(1050);
    expect(run.webFallbackFrom).toBe(runs[0]);
  });

  it('does not add the web to a run that failed, and keeps an unknown cost unknown', async () => {
    const failed = await withWebFallback('q', { web }, async () => finishedRun({ abstained: true, stopReason: 'timeout' }));
    expect(failed.trace.web?.reason).toBe('web fallback not tried: the docs-only run failed (stop: timeout)');
    let call = 0;
    const unknown = await withWebFallback('q', { web }, async () => finishedRun({ abstained: call++ === 0, costUsd: call === 1 ? null : 0.01 }));
    expect(unknown.usage.costUsd).toBeNull();
  });

  it('is a plain ask without web options', async () => {
    const run = await withWebFallback('q', {}, async () => finishedRun({ abstained: true }));
    expect(run.trace.web).toBeUndefined();
  });
});
