import { describe, expect, it } from 'vitest';
import { parseBlocks } from './blocks.ts';

const blocks = (body: string) =>
  parseBlocks({ body, bodyStartLine: 1, mdx: false }).map((block) => ({
    type: block.type,
    text: block.text,
    ...(block.headingText === undefined ? {} : { headingText: block.headingText }),
    ...(block.children ? { children: block.children.map((child) => child.text) } : {}),
  }));

// Expected values are those of the mdast (micromark + GFM) parser this one replaced.
describe('parseBlocks', () => {
  it('gives each top-level block with its source span, lines and the gap before it', () => {
    const body = 'Intro\n\n  ## Title {#t}  \n\n```ts\n## not a heading\n```\n';
    expect(parseBlocks({ body, bodyStartLine: 5, mdx: false })).toEqual([
      { type: 'paragraph', start: 0, end: 5, startLine: 5, endLine: 5, text: 'Intro', gapBefore: '' },
      { type: 'heading', start: 9, end: 24, startLine: 7, endLine: 7, text: '## Title', depth: 2, headingText: 'Title', gapBefore: '\n\n  ' },
      { type: 'code', start: 26, end: 52, startLine: 9, endLine: 11, text: '```ts\n## not a heading\n```', gapBefore: '\n\n' },
    ]);
  });

  it('replaces inline HTML by its text, in paragraphs, quotes, lists and tables, but not in code', () => {
    expect(blocks('Use <kbd>Ctrl</kbd>, not `<b>` or <https://x.y>.')).toEqual([{ type: 'paragraph', text: 'Use Ctrl, not `<b>` or <https://x.y>.' }]);
    expect(blocks('> quote <b>x</b>\n> more')).toEqual([{ type: 'blockquote', text: '> quote x\n> more' }]);
    expect(blocks('- item <b>one</b>\n\n  <div>\n  block <i>html</i>\n  </div>\n\n  ```\n  <b>code</b>\n  ```\n- two')).toEqual([
      { type: 'list', text: '- item one\n\n  block html\n\n  ```\n  <b>code</b>\n  ```\n- two', children: ['- item one\n\n  block html\n\n  ```\n  <b>code</b>\n  ```', '- two'] },
    ]);
    expect(blocks('| a <br> b | c |\n| - | - |\n| <i>x</i> | `<y>` |')).toEqual([
      { type: 'table', text: '| a   b | c |\n| - | - |\n| x | `<y>` |', children: ['| a   b | c |', '| x | `<y>` |'] },
    ]);
  });

  it('gives a heading its plain text, setext headings included', () => {
    expect(blocks('## The `run()` **API** <a id="x"></a> &amp; \\_x\\_ {#api}\n\nSetext *title*\n===')).toEqual([
      { type: 'heading', text: '## The `run()` **API**  &amp; \\_x\\_', headingText: 'The run() API  & _x_' },
      { type: 'heading', text: 'Setext *title*\n===', headingText: 'Setext title' },
    ]);
  });

  it('keeps link reference definitions and footnotes, one block each', () => {
    expect(blocks('[ref]: https://example.com\n[other]: /x "T"\n\n[^1]: A note.')).toEqual([
      { type: 'definition', text: '[ref]: https://example.com' },
      { type: 'definition', text: '[other]: /x "T"' },
      { type: 'footnoteDefinition', text: '[^1]: A note.' },
    ]);
  });

  it('leaves out pure markup and, on MDX pages, import statements', () => {
    const body = 'import X from "./x"\n\n<a name="top"></a>\n\nText.';
    expect(parseBlocks({ body, bodyStartLine: 1, mdx: true }).map((block) => [block.text, block.gapBefore])).toEqual([['Text.', '\n\n']]);
  });

  it('parses 3000 nested list markers and 10000 nested quote markers as one block each, and the blocks after them', () => {
    const dashes = `${'- '.repeat(3000)}deep`;
    const quotes = `${'>'.repeat(10_000)} deep`;
    const staircase = Array.from({ length: 300 }, (_, n) => `${'  '.repeat(n)}- step ${n}`).join('\n');
    expect(blocks(`${dashes}\n\n${quotes}\n\nAfter.\n\n${staircase}\n\nLast.`)).toEqual([
      { type: 'list', text: dashes, children: [dashes] },
      { type: 'blockquote', text: quotes },
      { type: 'paragraph', text: 'After.' },
      { type: 'list', text: staircase, children: [staircase] },
      { type: 'paragraph', text: 'Last.' },
    ]);
  });
});
