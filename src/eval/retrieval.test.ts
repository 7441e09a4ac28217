import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.ts';
import { recordingIO, runEval, TINY, TINY_SCRIPTS } from './test-cli.ts';
import { createPolicyModel } from './test-model.ts';

const classicRow = (kind: string, arm: string, n: number, recall: number, allFound: number, chunks: number, p50Ms = 0) => ({
  kind,
  arm,
  n,
  recall,
  allFound,
  searches: 1,
  chunks,
  p50Ms,
});

describe('atlas eval retrieval (tiny dataset)', () => {
  it('prints recall by kind for classic@5, classic@15 and the agent as one JSON object', async () => {
    const io = recordingIO();
    const result = JSON.parse(await runEval(['eval', 'retrieval', '--data', TINY, '--json'], io, createPolicyModel(TINY_SCRIPTS)));
    expect(result).toEqual({
      dataset: 'tiny',
      rows: [
        classicRow('exact_term', 'classic@5', 1, 1, 1, 1),
        classicRow('exact_term', 'classic@15', 1, 1, 1, 1),
        { kind: 'exact_term', arm: 'agentic', n: 1, recall: 1, allFound: 1, searches: 1, chunks: 1, p50Ms: 0 },
        classicRow('multi_hop', 'classic@5', 1, 1, 1, 5),
        classicRow('multi_hop', 'classic@15', 1, 1, 1, 8),
        { kind: 'multi_hop', arm: 'agentic', n: 1, recall: 0.333, allFound: 0, searches: 1, chunks: 1, p50Ms: 0 },
        classicRow('version', 'classic@5', 1, 1, 1, 2),
        classicRow('version', 'classic@15', 1, 1, 1, 2),
        { kind: 'version', arm: 'agentic', n: 1, recall: 1, allFound: 1, searches: 1, chunks: 1, p50Ms: 0 },
        { kind: 'unanswerable', arm: 'agentic', n: 1, abstainRate: 0, searches: 1, chunks: 1, p50Ms: 0 },
        classicRow('all', 'classic@5', 3, 1, 1, 2.667),
        classicRow('all', 'classic@15', 3, 1, 1, 3.667),
        { kind: 'all', arm: 'agentic', n: 3, recall: 0.778, allFound: 0.667, searches: 1, chunks: 1, p50Ms: 0 },
      ],
    });
    expect(io.err.at(-1)).toBe('eval retrieval: 10/10 (100%), ETA 0s\n');
  });

  it('runs only the classic arms without a model, timing each search with the injected clock', async () => {
    let clock = 0;
    const io = recordingIO({ now: () => (clock += 0.25) });
    const noModel = createPolicyModel({}, 0);
    const out = await runEval(['eval', 'retrieval', '--data', TINY, '--arms', 'classic', '--json'], io, noModel, {
      resolveModel: () => {
        throw new Error('no model should be resolved for --arms classic');
      },
    });
    expect(JSON.parse(out).rows.map((row: { kind: string; arm: string; p50Ms: number }) => `${row.kind} ${row.arm} ${row.p50Ms}`)).toEqual([
      'exact_term classic@5 0.25',
      'exact_term classic@15 0.25',
      'multi_hop classic@5 0.25',
      'multi_hop classic@15 0.25',
      'version classic@5 0.25',
      'version classic@15 0.25',
      'all classic@5 0.25',
      'all classic@15 0.25',
    ]);
  });

  it('labels the capped agentic arm with maxChunks and prints a readable table', async () => {
    const model = createPolicyModel({ ...TINY_SCRIPTS, 'ORB-1202': { searches: ['ORB-1202', 'payload limit'], cite: ['error-codes'] } });
    const out = await runEval(['eval', 'retrieval', '--data', TINY, '--arms', 'agentic', '--max-chunks', '2'], recordingIO(), model);
    expect(out).toBe(
      [
        'Retrieval eval on tiny (recall: share of gold pages among the chunks seen)',
        '',
        'kind          arm                   n  recall  allFound  abstain  searches  chunks  p50 ms',
        '------------  --------------------  -  ------  --------  -------  --------  ------  ------',
        'exact_term    agentic (<=2 chunks)  1       1         1        -         2       2       0',
        'multi_hop     agentic (<=2 chunks)  1   0.333         0        -         1       1       0',
        'version       agentic (<=2 chunks)  1       1         1        -         1       1       0',
        'unanswerable  agentic (<=2 chunks)  1       -         -        0         1       1       0',
        'all           agentic (<=2 chunks)  3   0.778     0.667        -     1.333   1.333       0',
        '',
      ].join('\n'),
    );
  });

  it('rejects an unknown arm with exit code 2 and says what to pass', async () => {
    const io = recordingIO();
    expect(await runCli(['eval', 'retrieval', '--data', TINY, '--arms', 'classic,vector'], io)).toBe(2);
    expect(io.err.join('')).toContain('--arms takes classic, agentic or both, got "classic,vector" (e.g. --arms classic,agentic).');
  });
});
