import { describe, expect, it } from 'vitest';
import { compareCases } from './cases.ts';

describe('compareCases', () => {
  it('takes every retrieval query and the qa_gold questions that do not repeat one', () => {
    const cases = compareCases({
      retrievalQueries: [
        { id: 'q1', query: 'Which error?', kind: 'exact_term', relevantDocIds: ['error-codes'], version: null, line: 1 },
        { id: 'q2', query: 'Kafka?', kind: 'unanswerable', relevantDocIds: [], version: null, line: 2 },
      ],
      qaGold: [
        { id: 'q1', question: 'Which error?', answer: 'ORB-1202', citations: ['error-codes'], version: null, line: 1 },
        { id: 'q1-3x', question: 'Which error?', answer: 'ORB-1202', citations: ['error-codes'], version: '3.x', line: 2 },
      ],
    });
    expect(cases).toEqual([
      { id: 'q1', kind: 'exact_term', question: 'Which error?', gold: ['error-codes'], version: null },
      { id: 'q2', kind: 'unanswerable', question: 'Kafka?', gold: [], version: null },
      { id: 'qa:q1-3x', kind: 'qa', question: 'Which error?', gold: ['error-codes'], version: '3.x' },
    ]);
  });
});
