import { describe, expect, it } from 'vitest';
import { htmlToText, inlineHtmlText } from './html.ts';

describe('htmlToText', () => {
  it.each([
    ['a decorative heading line', '<h1 align="center">Graphile Worker</h1>', 'Graphile Worker'],
    ['a centred logo', '<p align="center"><img src="logo.svg" alt="Logo" width="120" /></p>', ''],
    ['an anchor', '<a name="install"></a>', ''],
    ['a comment over several lines', '<!--\nTODO: rewrite\n## Not a heading\n-->', ''],
    ['a comment left open', '<!-- draft', ''],
    ['a script', '<script>window.x = 1 < 2;</script>', ''],
    ['a summary', '<details>\n<summary>Click to view <code>ca.pem</code></summary>', 'Click to view ca.pem'],
    ['a table, a row per line', '<table><tr><th>Flag</th><th>Default</th></tr><tr><td>-c</td><td>none</td></tr></table>', 'Flag Default\n-c none'],
    ['entities', '<p>Fast &amp; safe &mdash; &#8220;really&#x201d; &bogus;</p>', 'Fast & safe \u2014 \u201creally\u201d &bogus;'],
    ['line breaks', 'one<br>two<br/>three', 'one\ntwo\nthree'],
    ['JSX', '<Tabs>\n<TabItem value="cli">Use the CLI.</TabItem>\n</Tabs>', 'Use the CLI.'],
  ])('%s', (_name, html, text) => {
    expect(htmlToText(html)).toBe(text);
  });
});

describe('inlineHtmlText', () => {
  it('drops an inline tag, turns <br> into a line break', () => {
    expect(inlineHtmlText('<code>')).toBe('');
    expect(inlineHtmlText('</a>')).toBe('');
    expect(inlineHtmlText('<br />')).toBe('\n');
    expect(inlineHtmlText('<!-- note -->')).toBe('');
  });
});

describe('htmlToText on hostile input', () => {
  it('keeps 50k tags that never close as text', () => {
    expect(htmlToText('<a'.repeat(50_000))).toBe('<a'.repeat(50_000));
    expect(htmlToText('<p'.repeat(50_000)).length).toBe(100_000);
  });
});
