import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, type ChunkingOptions } from '../index.ts';

/** Markdown blocks of the kinds real docs mix, including the awkward ones. */
const word = fc.constantFrom('worker', 'queue', 'job', 'lease', 'retry', 'schema', 'payload', 'cron', 'a', 'the', '`maxPoolSize`', '**note**');
const sentence = fc.array(word, { minLength: 1, maxLength: 14 }).map((words) => `${words.join(' ')}.`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 6 }).map((sentences) => sentences.join(' '));
const block = fc.oneof(
  paragraph,
  fc.tuple(fc.integer({ min: 1, max: 5 }), fc.array(word, { minLength: 1, maxLength: 4 })).map(([depth, words]) => `${'#'.repeat(depth)} ${words.join(' ')}`),
  fc.array(sentence, { minLength: 1, maxLength: 30 }).map((items) => items.map((item, index) => (index % 4 === 3 ? `  - ${item}` : `- ${item}`)).join('\n')),
  fc.array(fc.tuple(word, sentence), { minLength: 1, maxLength: 40 }).map((rows) => ['| Name | Meaning |', '| --- | --- |', ...rows.map(([name, meaning]) => `| ${name} | ${meaning} |`)].join('\n')),
  fc.array(sentence, { minLength: 0, maxLength: 40 }).map((lines) => ['```ts', ...lines, '```'].join('\n')),
  fc.constantFrom(
    '<p align="center"><img src="logo.svg"></p>',
    '<a name="anchor"></a>',
    '<!-- a comment -->',
    '<details>\n<summary>Click to view <code>ca.pem</code></summary>',
    '</details>',
    '[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x)',
    '- [Install](#install)\n- [Usage](#usage)',
    ':::tip\n\nA tip.\n\n:::',
    'The following options are available:',
    '## Options {#options}',
  ),
);
const page = fc.array(block, { minLength: 0, maxLength: 40 }).map((blocks) => `${blocks.join('\n\n')}\n`);
const options: fc.Arbitrary<ChunkingOptions> = fc.record({
  maxChunkChars: fc.integer({ min: 120, max: 2000 }),
  minChunkChars: fc.integer({ min: 0, max: 60 }),
  splitDepth: fc.integer({ min: 2, max: 6 }),
});

describe('chunking any page', () => {
  it('gives ordered, linked, non-empty chunks within the page, with whole code fences, the same every time', () => {
    fc.assert(
      fc.property(page, options, (text, chunking) => {
        const result = parseDocument({ path: 'page.md', bytes: Buffer.from(text) }, chunking);
        const again = parseDocument({ path: 'page.md', bytes: Buffer.from(text) }, chunking);
        expect(again).toEqual(result);
        if (!result.ok) return;
        const lineCount = text.split('\n').length;
        let previousEnd = 0;
        result.doc.chunks.forEach((chunk, ord) => {
          expect(chunk.chunkId).toBe(`page#${ord}`);
          expect(chunk.prevChunkId).toBe(ord === 0 ? undefined : `page#${ord - 1}`);
          expect(chunk.nextChunkId).toBe(ord === result.doc.chunks.length - 1 ? undefined : `page#${ord + 1}`);
          expect(chunk.heading).toBe(chunk.headingPath[chunk.headingPath.length - 1]);
          expect(chunk.text.trim()).not.toBe('');
          expect(chunk.startLine).toBeGreaterThan(previousEnd);
          expect(chunk.endLine).toBeGreaterThanOrEqual(chunk.startLine);
          expect(chunk.endLine).toBeLessThanOrEqual(lineCount);
          expect(chunk.text.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
          previousEnd = chunk.endLine;
        });
      }),
      { numRuns: 300 },
    );
  });
});
