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

  it('reads directive lines as labels or nothing, and gives the blocks of a callout one group', () => {
    const body = 'Intro.\n\n::: warning\nDo not share the token.\n:::\n\n::: code-group\n```sh [npm]\nnpm i x\n```\n:::\n{% hint style="info" %}\nA hint.\n{% endhint %}';
    expect(parseBlocks({ body, bodyStartLine: 1, mdx: false }).map((block) => [block.type, block.text, block.gapBefore, block.group])).toEqual([
      ['paragraph', 'Intro.', '', undefined],
      ['label', 'Warning:', '\n\n', 2],
      ['paragraph', 'Do not share the token.', '\n', 2],
      ['code', '```sh [npm]\nnpm i x\n```', '\n\n', undefined],
      ['paragraph', 'A hint.', '\n\n', 11],
    ]);
  });

  it('reads a tab title line inside a tabs container only', () => {
    expect(blocks('::: tabs\n== npm\nRun npm.\n== yarn\nRun yarn.\n:::\n\n== not a tab')).toEqual([
      { type: 'label', text: 'npm:' },
      { type: 'paragraph', text: 'Run npm.' },
      { type: 'label', text: 'yarn:' },
      { type: 'paragraph', text: 'Run yarn.' },
      { type: 'paragraph', text: '== not a tab' },
    ]);
  });

  it('reads directives and drops comments nested in a list, leaving no blank line behind', () => {
    expect(blocks('- Options:\n  <!-- eslint-skip -->\n  ```ts\n  x()\n  ```\n- Warned:\n  ::: warning\n  Careful.\n  :::')).toEqual([
      { type: 'list', text: '- Options:\n  ```ts\n  x()\n  ```\n- Warned:\n  Warning:\n  Careful.', children: ['- Options:\n  ```ts\n  x()\n  ```', '- Warned:\n  Warning:\n  Careful.'] },
    ]);
  });

  it('drops inline Liquid tags and components, keeps placeholders in angle brackets', () => {
    expect(blocks('Run it {% raw %}with `{% x %}`{% endraw %} now.\n\nSince <Badge type="info">3.0</Badge><CRoot />, drain <queue> with <your-token>, not <kbd>Ctrl</kbd>.')).toEqual([
      { type: 'paragraph', text: 'Run it with `{% x %}` now.' },
      { type: 'paragraph', text: 'Since 3.0, drain <queue> with <your-token>, not Ctrl.' },
    ]);
  });

  it('reads 20k unclosed tabs containers and 20k tab titles, and 20k callouts in list items, in one pass', () => {
    const tabs = blocks(`${'::: tabs\n'.repeat(20_000)}${'== a\ntext\n'.repeat(20_000)}`);
    expect([tabs.length, tabs[0], tabs[1], tabs[39_999]]).toEqual([40_000, { type: 'label', text: 'a:' }, { type: 'paragraph', text: 'text' }, { type: 'paragraph', text: 'text' }]);
    const items = blocks(Array.from({ length: 20_000 }, (_, n) => `- item ${n}\n  ::: tip\n  text\n  :::`).join('\n'));
    expect(items[0]!.children!.slice(0, 2)).toEqual(['- item 0\n  Tip:\n  text', '- item 1\n  Tip:\n  text']);
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
