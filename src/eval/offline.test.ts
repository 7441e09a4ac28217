import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.ts';
import { recordingIO, TINY } from '../cli/test-cli.ts';

// The offline planner's behaviour evolves: these tests check the structure and ranges of the
// eval output through the real CLI (default model, sqlite index), not its exact numbers.
const share = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 1;

describe('eval commands with the offline model (tiny dataset)', () => {
  it('compare: every kind has a row per arm, shares are in [0, 1], buckets count the failures', async () => {
    const io = recordingIO();
    expect(await runCli(['eval', 'compare', '--data', TINY, '--json', '--budgets', '1,2'], io)).toBe(0);
    expect(io.err[0]).toBe('atlas: eval model: offline (an eval picks no model by itself, so that its runs repeat; name one with --model or ATLAS_MODEL).\n');
    expect(io.out).toHaveLength(1);
    const summary = JSON.parse(io.out[0] ?? '');
    expect(summary.model).toBe('offline');
    expect(summary.arms[0]).toBe('classic@5');
    expect(summary.arms.slice(-2)).toEqual(['agentic', 'auto']);
    const kinds = ['exact_term', 'multi_hop', 'version', 'unanswerable', 'qa', 'all'];
    expect(summary.rows.map((row: { kind: string; arm: string }) => `${row.kind} ${row.arm}`)).toEqual(
      kinds.flatMap((kind) => summary.arms.map((arm: string) => `${kind} ${arm}`)),
    );
    for (const row of summary.rows) {
      expect(row.kind === 'unanswerable' ? row.recall === null && row.readRecall === null : share(row.recall) && share(row.readRecall)).toBe(true);
      expect([share(row.pass), share(row.correct), share(row.abstain)]).toEqual([true, true, true]);
      expect(row.kind === 'unanswerable' ? row.factRecall === null : share(row.factRecall)).toBe(true);
      expect(row.costPerQuery === null || row.costPerQuery >= 0).toBe(true);
    }
    const failed = Object.values(summary.buckets as Record<string, number>).reduce((sum, count) => sum + count, 0);
    expect(failed).toBe(summary.failures.length);
    expect(summary.budgets.map((row: { maxSearches: number; n: number }) => [row.maxSearches, row.n])).toEqual([
      [1, 8],
      [2, 8],
    ]);
    expect(summary.budgets[0].searches).toBeLessThanOrEqual(1);
  });

  it('decisions: the confusion counts cover every question', async () => {
    const io = recordingIO();
    expect(await runCli(['eval', 'decisions', '--data', TINY, '--json', '--model', 'offline'], io)).toBe(0);
    const report = JSON.parse(io.out.join(''));
    const { tp, fp, tn, fn } = report.confusion;
    expect(tp + fp + tn + fn).toBe(4);
    expect(report.searchedWhenItShould.of).toBe(2);
    expect(report.answeredDirectlyWhenItShould.of).toBe(2);
    expect(report.wrong).toHaveLength(fp + fn);
    expect(share(report.accuracy)).toBe(true);
  });

  it('retrieval: the agentic rows carry recall, the unanswerable kind an abstain rate', async () => {
    const io = recordingIO();
    expect(await runCli(['eval', 'retrieval', '--data', TINY, '--json', '--arms', 'agentic', '--max-chunks', '15'], io)).toBe(0);
    const { dataset, rows } = JSON.parse(io.out.join(''));
    expect(dataset).toBe('tiny');
    expect(rows.map((row: { kind: string }) => row.kind)).toEqual(['exact_term', 'multi_hop', 'version', 'unanswerable', 'all']);
    for (const row of rows) {
      expect(row.arm).toBe('agentic');
      expect(row.maxChunks).toBe(15);
      expect(row.chunks).toBeLessThanOrEqual(15);
      expect(
        row.kind === 'unanswerable' ? share(row.abstainRate) && row.recall === undefined : share(row.recall) && share(row.readRecall) && share(row.allFound),
      ).toBe(true);
    }
  });
});
