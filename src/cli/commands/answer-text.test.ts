import { describe, expect, it } from 'vitest';
import type { Citation } from '../../agent/trust/answer.ts';
import { answerContent } from '../../server/openai-format.ts';
import { citationLines, closestLines } from './answer-text.ts';

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

describe('quotes as the CLI prints them', () => {
  it('renders the markdown of a quote and of a closest sentence as text, keeping code spans and values', () => {
    const quote = 'If you want to filter out certain errors, use [`onUnhandledError`](/config/onunhandlederror) &mdash; it&apos;s **called** with `65536*1024` bytes.';
    expect(citationLines([{ ...current, quote }])).toEqual([
      '  [1] Leases > Duration — leases.md:7-7',
      '      "If you want to filter out certain errors, use `onUnhandledError` \u2014 it\'s called with `65536*1024` bytes."',
    ]);
    const { quote: _quote, stale: _stale, ...place } = current;
    const closest = [{ ...place, sentences: ['| `maxPoolSize` | 10 |', 'Set it to `<queue>.dlq` &amp; wait.'] }];
    expect(closestLines({ text: "I couldn't find a direct answer in the docs.", closest })).toEqual([
      'Closest passages in the docs:',
      '  Leases > Duration — leases.md:7-7',
      '      "`maxPoolSize` | 10"',
      '      "Set it to `<queue>.dlq` & wait."',
    ]);
    // Told in German that the docs hold no direct answer, the reader reads on under a German heading.
    expect(closestLines({ text: 'Ich konnte in der Dokumentation keine direkte Antwort finden.', closest })[0]).toBe('Die nächstliegenden Stellen der Dokumentation:');
  });
});
