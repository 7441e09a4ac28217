import { describe, expect, it } from 'vitest';
import { answerStringCounts, goldAnswers, type ReportCase } from './answer-strings.ts';

const answered = (question: string, text: string, quote = text): ReportCase => ({ arm: 'agentic', question, abstained: false, run: { answer: { text, citations: [{ quote }] } } });
const closest = (question: string, sentences: string[]): ReportCase => ({ arm: 'agentic', question, abstained: true, run: { answer: { text: '', citations: [], closest: [{ sentences }] } } });

describe('answerStringCounts', () => {
  const answers = goldAnswers(
    [
      '{"id": "a", "question": "Who directed Big Eyes?", "answer": "Tim Burton", "answer_aliases": ["Timothy Burton"], "citations": ["big-eyes"]}',
      '{"id": "b", "question": "Who is the wife of Kim Jong-chul?", "answer": "Ri Hyon-a", "citations": ["kim-jong-chul"]}',
      '{"id": "c", "question": "Who founded Orbit?", "answer": "", "citations": []}',
      '',
    ].join('\n'),
  );

  it('reads the answer and its aliases of the answerable lines', () => {
    expect([...answers]).toEqual([
      ['Who directed Big Eyes?', ['Tim Burton', 'Timothy Burton']],
      ['Who is the wife of Kim Jong-chul?', ['Ri Hyon-a']],
    ]);
  });

  it('counts answers that hold the gold string (in the text or a quote) and closest passages that show it', () => {
    const cases = [
      answered('Who directed Big Eyes?', 'It was directed by Timothy Burton. [1]'),
      answered('Who is the wife of Kim Jong-chul?', 'Kim Jong-chul is a son of Kim Jong-il. [1]'),
      closest('Who is the wife of Kim Jong-chul?', ['He married Ri Hyon-a in 2012.']),
      closest('Who directed Big Eyes?', ['Big Eyes is a 2014 film.']),
      answered('Who founded Orbit?', 'Nobody. [1]'),
      { ...answered('Who directed Big Eyes?', 'See [1].', 'Big Eyes is a film directed by Tim Burton.'), arm: 'classic@5' },
    ];
    expect(answerStringCounts(cases, answers)).toEqual({
      agentic: { cases: 4, answered: 2, held: 1, precision: 0.5, closestHeld: 1 },
      'classic@5': { cases: 1, answered: 1, held: 1, precision: 1, closestHeld: 0 },
    });
  });

  it('has no precision for an arm that never answered', () => {
    expect(answerStringCounts([closest('Who directed Big Eyes?', ['Directed by Tim Burton.'])], answers)).toEqual({
      agentic: { cases: 1, answered: 0, held: 0, precision: null, closestHeld: 1 },
    });
  });
});
