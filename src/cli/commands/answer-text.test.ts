import { describe, expect, it } from 'vitest';
import type { Citation } from '../../agent/trust/answer.ts';
import { answerContent } from '../../server/openai-format.ts';
import { citationLines } from './answer-text.ts';

const current: Citation = { docId: 'leases', quote: 'A lease lasts sixty seconds.', chunkId: 'leases#1', heading: 'Duration', headingPath: ['Leases', 'Duration'], sourcePath: 'leases.md', startLine: 7, endLine: 7 };
const stale: Citation = { ...current, stale: { reason: 'the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read' } };

describe('a stale citation as the CLI and the OpenAI adapter print it', () => {
  it('atlas ask and chat mark it [stale] and give the reason under the quote', () => {
    expect(citationLines([current, stale])).toEqual([
      '  [1] Leases > Duration — leases.md:7-7',
      '      "A lease lasts sixty seconds."',
      '  [2] Leases > Duration — leases.md:7-7 [stale]',
      '      "A lease lasts sixty seconds."',
      '      stale: the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read',
    ]);
  });

  it('the chat completion content lists it among the sources as stale, with the reason', () => {
    expect(answerContent({ text: 'Sixty seconds. [1]', citations: [stale], abstained: false })).toBe(
      'Sixty seconds. [1]\n\nSources:\n[1] Leases > Duration (leases.md:7-7) (stale: the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read)',
    );
  });
});
