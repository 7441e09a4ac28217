import { describe, expect, it } from 'vitest';
import type { Answer } from '../agent/trust/answer.ts';
import type { AgentRun, EvidenceRecord } from '../agent/run-types.ts';
import { answerWords, compareCases, scoreRun, thrownRun, type EvalCase } from './cases.ts';
import { answerRows } from './compare-rows.ts';

describe('compareCases', () => {
  it('makes every line its own case: a repeated question too, and a qa line citing no page is unanswerable', () => {
    const cases = compareCases({
      retrievalQueries: [
        { id: 'q1', query: 'Which error?', kind: 'exact_term', relevantDocIds: ['error-codes'], version: null, facts: [['ORB-1202']], line: 1 },
        { id: 'q2', query: 'Kafka?', kind: 'unanswerable', relevantDocIds: [], version: null, facts: [], line: 2 },
      ],
      qaGold: [
        { id: 'q1', question: 'Which error?', answer: 'ORB-1202', citations: ['error-codes'], version: null, facts: [], line: 1 },
        { id: 'q1-3x', question: 'Which error?', answer: 'ORB-1202', citations: ['error-codes'], version: '3.x', facts: [['1202']], line: 2 },
        { id: 'q9', question: 'Kafka?', answer: 'The docs do not say.', citations: [], version: null, facts: [], line: 3 },
      ],
    });
    expect(cases).toEqual([
      { id: 'q1', kind: 'exact_term', question: 'Which error?', gold: ['error-codes'], version: null, facts: [['ORB-1202']] },
      { id: 'q2', kind: 'unanswerable', question: 'Kafka?', gold: [], version: null, facts: [] },
      { id: 'qa:q1', kind: 'qa', question: 'Which error?', gold: ['error-codes'], version: null, facts: [] },
      { id: 'qa:q1-3x', kind: 'qa', question: 'Which error?', gold: ['error-codes'], version: '3.x', facts: [['1202']] },
      { id: 'qa:q9', kind: 'unanswerable', question: 'Kafka?', gold: [], version: null, facts: [] },
    ]);
  });
});

/** A finished run with this answer (citations from these docs) and this evidence. */
function runWith(text: string, cited: Array<[docId: string, quote: string]>, evidence: Array<[docId: string, source: EvidenceRecord['source']]>, abstained = false): AgentRun {
  const base = thrownRun('q', new Error('unused'));
  const answer: Answer = {
    text,
    abstained,
    citations: cited.map(([docId, quote]) => ({ docId, quote, chunkId: `${docId}#0`, heading: '', headingPath: [], sourcePath: `${docId}.md`, startLine: 1, endLine: 1 })),
  };
  const records = evidence.map(([docId, source], position) => ({ chunkId: `${docId}#${position}`, docId, heading: '', firstStep: 0, source }));
  return { ...base, answer, trace: { ...base.trace, evidence: records, stopReason: 'model-done', errors: [] } };
}

const item = (gold: string[], facts: string[][]): EvalCase => ({ id: 'c', kind: 'multi_hop', question: 'q', gold, version: null, facts });
const outcome = (result: ReturnType<typeof scoreRun>) => ({
  pass: result.pass,
  correct: result.correct,
  factRecall: result.factRecall,
  missingFacts: result.missingFacts,
  recall: result.recall,
  readRecall: result.readRecall,
});

describe('scoreRun', () => {
  const evidence: Array<[string, EvidenceRecord['source']]> = [['config', 'search'], ['job-key', 'read'], ['job-key', 'search']];

  it('is correct when every fact is in the answer or its quotes (markdown escapes undone)', () => {
    const run = runWith('Waits 5 seconds.', [['job-key', 'the mode is `preserve\\_run\\_at`']], evidence);
    expect(outcome(scoreRun(item(['config', 'job-key'], [['5_000', '5 seconds'], ['preserve_run_at']]), 'agentic', run))).toEqual({
      pass: true,
      correct: true,
      factRecall: 1,
      missingFacts: [],
      recall: 1,
      readRecall: 0.5, // config was only seen as a snippet
    });
  });

  it('passes without being correct when a fact is missing', () => {
    const run = runWith('It uses a job key.', [['job-key', 'Jobs with the same job_key are replaced.']], evidence);
    expect(outcome(scoreRun(item(['job-key'], [['job_key'], ['locked']]), 'agentic', run))).toEqual({
      pass: true,
      correct: false,
      factRecall: 0.5,
      missingFacts: [['locked']],
      recall: 1,
      readRecall: 1,
    });
  });

  it('falls back to pass when the case lists no facts', () => {
    const citing = runWith('See the page.', [['job-key', 'Jobs with the same job_key are replaced.']], evidence);
    const elsewhere = runWith('See the page.', [['config', 'Set the pool size in the config.']], evidence);
    expect([scoreRun(item(['job-key'], []), 'agentic', citing), scoreRun(item(['job-key'], []), 'agentic', elsewhere)].map(outcome)).toEqual([
      { pass: true, correct: true, factRecall: null, missingFacts: [], recall: 1, readRecall: 1 },
      { pass: false, correct: false, factRecall: null, missingFacts: [], recall: 1, readRecall: 1 },
    ]);
  });

  it('is never correct when it abstains on an answerable case, and only correct when it abstains on an unanswerable one', () => {
    const abstained = runWith("I couldn't find this in the docs.", [], evidence, true);
    const answered = runWith('Yes, 5 seconds.', [['config', 'Set the pool size in the config.']], evidence);
    expect([
      scoreRun(item(['config'], [['5 seconds']]), 'agentic', abstained),
      scoreRun(item([], []), 'agentic', abstained),
      scoreRun(item([], []), 'agentic', answered),
    ].map(outcome)).toEqual([
      { pass: false, correct: false, factRecall: 0, missingFacts: [['5 seconds']], recall: 1, readRecall: 0 },
      { pass: true, correct: true, factRecall: null, missingFacts: [], recall: null, readRecall: null },
      { pass: false, correct: false, factRecall: null, missingFacts: [], recall: null, readRecall: null },
    ]);
  });
});

describe('answers per arm (answerRows)', () => {
  /** An abstention that shows these closest passages (doc id and sentences). */
  function closestRun(passages: Array<[docId: string, sentences: string[]]>): AgentRun {
    const run = runWith("I couldn't find a direct answer in the docs.", [], [['config', 'read']], true);
    const closest = passages.map(([docId, sentences]) => ({ chunkId: `${docId}#0`, docId, heading: '', headingPath: [], sourcePath: `${docId}.md`, startLine: 1, endLine: 2, sentences }));
    return { ...run, answer: { ...run.answer, closest } };
  }

  it('counts answered, correct, wrong, precision, closest passages that hold the facts, unanswerable abstained and answer words', () => {
    const results = [
      // Answered with every fact: correct (markers are not words).
      scoreRun(item(['config'], [['5 seconds']]), 'agentic', runWith('The timeout is 5 seconds. [1]', [['config', 'The timeout is 5 seconds.']], [['config', 'read']])),
      // Answered without the fact: wrong.
      scoreRun(item(['config'], [['preserve_run_at']]), 'agentic', runWith('Jobs are retried 25 times by default. [1]', [['config', 'Jobs are retried 25 times by default.']], [['config', 'read']])),
      // Abstained, and the closest passages hold the fact: closest useful.
      scoreRun(item(['config'], [['preserve_run_at']]), 'agentic', closestRun([['other', ['Unrelated.']], ['config', ['Use preserve_run_at to keep the time.']]])),
      // Abstained, the closest passages lack it.
      scoreRun(item(['config'], [['preserve_run_at']]), 'agentic', closestRun([['config', ['Something else entirely.']]])),
      // Unanswerable: answered is wrong, abstained counts.
      scoreRun(item([], []), 'agentic', runWith('Kafka is supported. [1]', [['config', 'Kafka is supported.']], [['config', 'read']])),
      scoreRun(item([], []), 'agentic', runWith("I couldn't find this in the docs.", [], [], true)),
    ];
    expect(results.map((result) => [result.closestUseful, result.answerWords])).toEqual([
      [false, 5],
      [false, 7],
      [true, null],
      [false, null],
      [false, 3],
      [false, null],
    ]);
    expect(answerRows(results, ['classic@5', 'agentic'])).toEqual([
      {
        arm: 'agentic',
        n: 6,
        answered: 3,
        correct: 1,
        wrong: 2,
        precision: 0.333,
        closestUseful: 1,
        correctOrClosest: 0.5,
        unanswerableAbstained: 1,
        unanswerable: 2,
        medianWords: 5,
        maxWords: 7,
      },
    ]);
  });
});

describe('answerWords', () => {
  it('counts words as a reader does, markers left out, Chinese by its words rather than its spaces', () => {
    expect(answerWords('Leases last 30 s. [1] Heartbeats extend them. [2]')).toBe(7);
    expect(answerWords('《战国无双3》是由光荣和ω-force开发的。 [1]')).toBe(11);
  });
});
