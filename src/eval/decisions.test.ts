import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingIO, runEval, TINY, TINY_SCRIPTS } from '../cli/test-cli.ts';
import { createPolicyModel } from './test-model.ts';

describe('atlas eval decisions (scripted model, tiny dataset)', () => {
  it('reports the confusion counts, accuracy and the wrong cases as JSON', async () => {
    const model = createPolicyModel(TINY_SCRIPTS);
    const io = recordingIO();
    const report = JSON.parse(await runEval(['eval', 'decisions', '--data', TINY, '--json', '--concurrency', '2'], io, model));
    expect(report).toEqual({
      dataset: 'tiny',
      model: 'scripted',
      n: 4,
      searchedWhenItShould: { correct: 1, of: 2 },
      answeredDirectlyWhenItShould: { correct: 1, of: 2 },
      confusion: { tp: 1, fp: 1, tn: 1, fn: 1 },
      accuracy: 0.5,
      wrong: [
        {
          id: 'line-3',
          question: 'How do I reverse a list in Python?',
          expectSearch: false,
          searched: true,
          answer: "I couldn't find this in the docs.",
          queries: ['reverse list'],
        },
        { id: 'line-4', question: 'How are cron schedules run?', expectSearch: true, searched: false, answer: 'Hello! No need to search for that.', queries: [] },
      ],
      failedRuns: { count: 0, of: 4 },
    });
    // Every first call lets the model choose (firstTurn auto).
    const firstCalls = model.requests.filter((request) => request.prompt.every((message) => message.role !== 'assistant'));
    expect(firstCalls.map((request) => request.toolChoice?.type)).toEqual(['auto', 'auto', 'auto', 'auto']);
  });

  it('prints a readable summary with the wrong decisions', async () => {
    const out = await runEval(['eval', 'decisions', '--data', TINY], recordingIO(), createPolicyModel(TINY_SCRIPTS));
    expect(out).toBe(
      [
        'Search-or-answer decisions on tiny (4 questions, firstTurn auto)',
        '  searched when it should:            1/2',
        '  answered directly when it should:   1/2',
        '  confusion (positive = searched):    tp 1, fp 1, tn 1, fn 1',
        '  accuracy:                           0.5',
        '',
        'Wrong decisions:',
        '  line-3: "How do I reverse a list in Python?": expected a direct answer, searched ("reverse list")',
        '  line-4: "How are cron schedules run?": expected a search, answered directly',
        '',
      ].join('\n'),
    );
  });

  it('names the missing decisions file', async () => {
    const dataset = path.join(import.meta.dirname, '__fixtures__', 'no-eval');
    await expect(runEval(['eval', 'decisions', '--data', dataset], recordingIO(), createPolicyModel({}))).rejects.toThrow(
      `Atlas: ${path.join(dataset, 'eval/decisions.jsonl')} is missing; this eval needs it. Add it (one JSON object a line: {"q", "expect_search"}).`,
    );
  });
});
