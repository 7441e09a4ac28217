import { describe, expect, it } from 'vitest';
import type { Citation } from '../agent/trust/answer.ts';
import { CLOSEST_PASSAGES } from '../testing/orbit-answers.ts';
import { answerContent, contentDeltas } from './openai-format.ts';

const citation = (quote: string, overrides: Partial<Citation> = {}): Citation => ({
  docId: 'flows',
  quote,
  chunkId: 'flows#2',
  heading: 'Results',
  headingPath: ['Flows', 'Results'],
  sourcePath: 'flows.md',
  startLine: 4,
  endLine: 9,
  ...overrides,
});

describe('answerContent', () => {
  it('puts each marker after the sentence its quote ends with, and unplaced ones after the text', () => {
    const answer = {
      text: 'Steps fail with ORB-1202 (PayloadTooLarge). Return a reference instead.',
      citations: [
        citation('Steps *fail* ... with `ORB-1202` ([PayloadTooLarge](errors.md))'),
        citation('A sentence the answer does not say.', { sourcePath: 'other.md', headingPath: ['Other'], startLine: 1, endLine: 2 }),
        citation('Return a reference instead.'),
      ],
      abstained: false,
    };
    expect(answerContent(answer)).toBe(
      'Steps fail with ORB-1202 (PayloadTooLarge). [1] Return a reference instead. [3] [2]\n\nSources:\n[1] Flows > Results (flows.md:4-9)\n[2] Other (other.md:1-2)\n[3] Flows > Results (flows.md:4-9)',
    );
  });

  it('keeps the markers of a text that carries them, and places none', () => {
    const answer = {
      text: 'Steps fail with ORB-1202. [2] Return a reference instead. [1]',
      citations: [citation('Return a reference instead.'), citation('Steps fail with ORB-1202.', { sourcePath: 'errors.md', headingPath: ['Errors'], startLine: 1, endLine: 1 })],
      abstained: false,
    };
    expect(answerContent(answer)).toBe('Steps fail with ORB-1202. [2] Return a reference instead. [1]\n\nSources:\n[1] Flows > Results (flows.md:4-9)\n[2] Errors (errors.md:1-1)');
  });

  it('gives an abstention its text alone, and the closest passages after it when it found some', () => {
    expect(answerContent({ text: "I couldn't find this in the docs.", citations: [], abstained: true })).toBe("I couldn't find this in the docs.");
    expect(answerContent({ text: "I couldn't find a direct answer in the docs.", citations: [], abstained: true, closest: CLOSEST_PASSAGES })).toBe(
      [
        "I couldn't find a direct answer in the docs.",
        '',
        'Closest passages in the docs:',
        '- Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge (error-codes.md:90-91): "The job\'s arguments or a flow step\'s result are larger than the payload limit." "For arguments, `enqueue` raises it at once."',
      ].join('\n'),
    );
  });
});

describe('contentDeltas', () => {
  it('cuts after whitespace into deltas of at most 64 characters (a longer word alone) that join to the content', () => {
    const content = `${'word '.repeat(30)}${'x'.repeat(70)} end\n\nSources:`;
    const deltas = contentDeltas(content);
    expect(deltas.join('')).toBe(content);
    expect(deltas.map((delta) => delta.length)).toEqual([60, 60, 30, 71, 13]);
  });
});
