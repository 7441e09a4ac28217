import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-markdown.ts';
import { markdownLink } from './markdown-writer.ts';

describe('htmlToMarkdown titles', () => {
  const body = '<div role="main"><h1>Retries</h1><p>Text.</p></div>';
  const titles = (head: string) => {
    const { declaredTitle, firstHeading } = htmlToMarkdown(`${head}${body}`, { role: 'main', start: head.length });
    return { declaredTitle, firstHeading };
  };

  it('reads the first <title> and the first og:title before the main element, wherever they stand in it', () => {
    expect(titles('<head><title>Retries | Docs</title><meta name="viewport"></head>')).toEqual({ declaredTitle: 'Retries | Docs', firstHeading: 'Retries' });
    expect(titles('<head><title>A</title><meta charset="utf-8"><title>B</title><META property="og:title" content="OG"/></head>')).toEqual({ declaredTitle: 'OG', firstHeading: 'Retries' });
    expect(titles('<head><title></title></head><header><title>Late &amp; only</title><meta name="title" content="Meta"><meta property="og:title" content="Second"></header>')).toEqual({ declaredTitle: 'Meta', firstHeading: 'Retries' });
    expect(titles('<head><script>"<meta name=title content=x>"</script><title>T</title></head>')).toEqual({ declaredTitle: 'T', firstHeading: 'Retries' });
  });
});

// What a converted page keeps of the markdown it was rendered from (format parity, issue 40).
describe('htmlToMarkdown fidelity', () => {
  it('keeps links to other pages as markdown links (the offline planner follows them), anchors and scripts as text', () => {
    const html = [
      '<p>See <a href="/library/add-job.md"><code>addJob</code></a> and the <a href="./job-key.md#modes">job key modes</a>.</p>',
      '<p>Read <a href="https://github.com/graphile/worker">the source</a>, <a href="#options">the options</a> or <a href="javascript:void(0)">this</a>.</p>',
      '<p>Visit <a href="https://example.com">https://example.com</a> <a href="a (b).html">[x]</a></p>',
    ].join('');
    expect(htmlToMarkdown(html, 'all').markdown).toBe(
      [
        'See [`addJob`](/library/add-job.md) and the [job key modes](./job-key.md#modes).',
        '',
        'Read [the source](https://github.com/graphile/worker), the options or this.',
        '',
        'Visit https://example.com [\\[x\\]](a%20%28b%29.html)',
        '',
      ].join('\n'),
    );
  });

  it('keeps "Edit this page" links out, and a heading\'s link as its text', () => {
    expect(htmlToMarkdown('<h2><a href="/x.md">Retries</a></h2><p>Text <a href="/edit/x.md">Edit this page</a></p>', 'all').markdown).toBe('## Retries\n\nText\n');
  });


  it("keeps a footnote written as an <aside> (Sphinx's), its links back to the text left out, and leaves a sidebar out", () => {
    const html =
      '<main><p>Open it with <code>newline=\'\'</code> <a class="footnote-reference brackets" href="#id3" id="id1" role="doc-noteref">[1]</a>.</p>' +
      '<aside class="sidebar"><p>Related pages.</p></aside>' +
      '<aside class="footnote-list brackets"><aside class="footnote brackets" id="id3" role="note"><span class="label">[1]</span>' +
      '<span class="backrefs">(<a role="doc-backlink" href="#id1">1</a>)</span><p>Without it, newlines in quoted fields are misread.</p></aside></aside></main>';
    expect(htmlToMarkdown(html, { tag: 'main', start: 0 }).markdown).toBe("Open it with `newline=''` [1].\n\n[1]\n\nWithout it, newlines in quoted fields are misread.\n");
  });

  it('heads a long signature (Sphinx) by its name and shows it as code; a long term that is a sentence is a paragraph', () => {
    const parameters = Array.from({ length: 12 }, (_, index) => `option_${index}=None`).join(', ');
    const html = `<dl><dt id="subprocess.run">subprocess.run(args, *, ${parameters})</dt><dd><p>Run the command.</p></dd></dl><dl><dt>${'A term that says a whole sentence. '.repeat(7)}</dt><dd><p>Text.</p></dd></dl>`;
    expect(htmlToMarkdown(`<h1>subprocess</h1>${html}`, 'all').markdown).toBe(
      ['# subprocess', '', '## subprocess.run()', '', '```', `subprocess.run(args, *, ${parameters})`, '```', '', 'Run the command.', '', `${'A term that says a whole sentence. '.repeat(7).trim()}`, '', 'Text.', ''].join('\n'),
    );
  });

  it('writes a second signature of one description (Sphinx: two <dt> before one <dd>) as code under the first', () => {
    const html = '<h1>functools</h1><dl><dt>functools.cmp_to_key(func)</dt><dd><p>Transform.</p></dd></dl><dl><dt>@functools.lru_cache(user_function)</dt><dt>@functools.lru_cache(maxsize=128, typed=False)</dt><dd><p>Decorator.</p></dd></dl>';
    expect(htmlToMarkdown(html, 'all').markdown).toBe(
      ['# functools', '', '## functools.cmp_to_key(func)', '', 'Transform.', '', '## @functools.lru_cache(user_function)', '', '```', '@functools.lru_cache(maxsize=128, typed=False)', '```', '', 'Decorator.', ''].join('\n'),
    );
  });

  it("reads a code block's language from pandoc's classes (`sourceCode ts`) as from `language-ts`", () => {
    const html = '<div class="sourceCode" id="cb1"><pre class="sourceCode ts"><code class="sourceCode typescript"><span id="cb1-1"><a href="#cb1-1" aria-hidden="true" tabindex="-1"></a>clearMocks: false</span></code></pre></div>';
    expect(htmlToMarkdown(html, 'all').markdown).toBe('```ts\nclearMocks: false\n```\n');
  });
});

describe('markdownLink', () => {
  it('keeps the whitespace around the text outside the brackets and leaves a blank text alone', () => {
    expect(markdownLink(' the events system ', '/docs/worker-events')).toBe(' [the events system](/docs/worker-events) ');
    expect(markdownLink('  ', '/docs/x')).toBe('  ');
    expect(markdownLink('/docs/x', '/docs/x')).toBe('/docs/x');
  });
});

describe('htmlToMarkdown table cells', () => {
  it('keeps the words of a cell\'s paragraphs and list items apart, in HTML written without line breaks', () => {
    // Python's unittest docs: "does not log on" ends one <p> of the cell, "logger" starts the next.
    const html =
      '<table><thead><tr><th>Method</th><th>Checks that</th></tr></thead><tbody><tr><td><p>assertNoLogs(logger, level)</p></td>' +
      '<td><p>The with block does not log on</p><p><em>logger</em> with minimum level</p></td></tr>' +
      '<tr><td><p>Ways</p></td><td><ul><li><code>(?P=quote)</code></li><li><code>\\1</code></li></ul></td></tr></tbody></table>';
    expect(htmlToMarkdown(html, 'all').markdown).toBe(
      [
        '| Method | Checks that |',
        '| --- | --- |',
        '| assertNoLogs(logger, level) | The with block does not log on logger with minimum level |',
        '| Ways | (?P=quote) \\1 |',
        '',
      ].join('\n'),
    );
  });
});
