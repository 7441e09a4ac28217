import { describe, expect, it } from 'vitest';
import { HtmlTooDeepError } from './html-markdown.ts';
import { convertHtml, isXhtml, withXhtmlEmptyElements } from './html.ts';
import { collapseSpace } from './markdown-writer.ts';

const SITE_PAGE = `<!doctype html>
<html><head><title>Retries | Example Docs</title><meta name="viewport" content="width=device-width"></head>
<body>
<header class="navbar"><a href="/">Home</a> Docs Blog</header>
<nav class="sidebar"><ul><li>Intro</li><li>Retries</li></ul></nav>
<main><article>
<h1>Retries<a class="headerlink" href="#retries">¶</a></h1>
<p>A failed job is retried with <em>exponential</em> backoff.</p>
<h2>Limits</h2>
<ul><li>At most <code>25</code> attempts.</li><li>Then it is failed.<ul><li>Its row stays.</li></ul></li></ul>
<pre><code class="language-js">await addJob('x', {}, { maxAttempts: 5 });
// done</code></pre>
<table><thead><tr><th>Attempt</th><th>Delay</th></tr></thead><tbody><tr><td>1</td><td>2 s | more</td></tr></tbody></table>
<p><a href="https://github.com/x/edit/main/retries.md">Edit this page</a></p>
<footer>Last updated on 2024-01-01</footer>
</article></main>
<div class="cookie-banner">We use cookies. <button>Accept</button></div>
<footer>© 2024 Example</footer>
<script>track()</script>
</body></html>`;

describe('convertHtml', () => {
  it('keeps the main content as markdown and leaves out navigation, sidebars, headers, footers, edit links and cookie banners', () => {
    expect(convertHtml(SITE_PAGE)).toEqual({
      title: 'Retries',
      markdown: [
        '# Retries',
        '',
        'A failed job is retried with exponential backoff.',
        '',
        '## Limits',
        '',
        '- At most `25` attempts.',
        '',
        '- Then it is failed.',
        '',
        '   - Its row stays.',
        '',
        '```js',
        "await addJob('x', {}, { maxAttempts: 5 });",
        '// done',
        '```',
        '',
        '| Attempt | Delay |',
        '| --- | --- |',
        '| 1 | 2 s \\| more |',
        '',
      ].join('\n'),
    });
  });

  it('reads a Sphinx page: the [role=main] body, a definition term as a heading below the last one, the title without the site suffix', () => {
    const sphinx = `<html><head><title>itertools — Functions creating iterators &#8212; Python 3.11.2 documentation</title></head><body>
<div class="related" role="navigation"><ul><li><a href="genindex.html">index</a></li><li><a href="py-modindex.html">modules</a> |</li></ul></div>
<div class="document"><div class="body" role="main">
<section id="module-itertools"><h1><code>itertools</code> — Functions creating iterators</h1>
<p>This module implements iterator building blocks.</p>
<section id="itertool-functions"><h2>Itertool functions<a class="headerlink" href="#x">¶</a></h2>
<dl class="py function"><dt class="sig sig-object py" id="itertools.groupby"><span class="sig-prename descclassname"><span class="pre">itertools.</span></span><span class="sig-name descname"><span class="pre">groupby</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">iterable</span></span></em><span class="sig-paren">)</span><a class="headerlink" href="#itertools.groupby">¶</a></dt>
<dd><p>Make an iterator that returns consecutive keys and groups.</p></dd></dl>
</section></section></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Previous topic</h3><p>functools</p></div>
<div class="footer">© Copyright 2001-2023, Python Software Foundation.</div>
</body></html>`;
    expect(convertHtml(sphinx)).toEqual({
      title: 'itertools — Functions creating iterators',
      markdown: [
        '# `itertools` — Functions creating iterators',
        '',
        'This module implements iterator building blocks.',
        '',
        '## Itertool functions',
        '',
        '### itertools.groupby(iterable)',
        '',
        'Make an iterator that returns consecutive keys and groups.',
        '',
      ].join('\n'),
    });
  });

  it('falls back to Readability for a page without main, [role=main] or article', () => {
    const words = 'The scheduler reads the cron table every minute and queues the jobs that are due, once each. ';
    const page = `<html><head><title>Cron</title></head><body>
<div class="menu"><a href="/">Home</a><a href="/docs">Docs</a></div>
<div id="content"><h1>Cron</h1><p>${words.repeat(4)}</p><p>${words.repeat(3)}</p></div>
<div class="site-footer">Imprint</div></body></html>`;
    expect(convertHtml(page)).toEqual({ title: 'Cron', markdown: `${words.repeat(4).trim()}\n\n${words.repeat(3).trim()}\n` });
  });

  it('keeps the text of inline elements Readability would take for clutter by their class, and leaves icons out (LibreOffice Help)', () => {
    const words = 'If you have long rows of data that extend beyond the viewable area of the sheet, you can freeze some rows. ';
    const page = `<html><head><title>Freezing Rows</title></head><body>
<div id="TopLeftHeader"><a href="../../index.html">LibreOffice Help</a></div>
<div id="DisplayArea"><h1>Freezing Rows</h1><p>${words.repeat(3)}</p>
<p class="listitem">Choose <span class="menuitem">View - Freeze Rows and Columns</span>.</p>
<p>Set it in <span class="switchinline"><span hidden="true" class="MAC">LibreOffice - Preferences</span><span hidden="true">Tools - Options</span></span> - LibreOffice - View.</p>
<div class="note"><div class="noteicon"><img src="note.svg" alt="Note Icon"></div>
<div class="notetext"><p>To scroll again, apply the <span class="menuitem">View - Split Window</span> command.</p></div></div></div>
</body></html>`;
    expect(convertHtml(page).markdown).toBe(
      `${words.repeat(3).trim()}\n\nChoose View - Freeze Rows and Columns.\n\nSet it in LibreOffice - Preferences / Tools - Options - LibreOffice - View.\n\nTo scroll again, apply the View - Split Window command.\n`,
    );
  });

  it("reads an XHTML page's empty elements as empty: a DocBook page keeps its section headings, not its navigation header", () => {
    const words = 'The boot loader starts the kernel with the parameters of its configuration file. ';
    const page = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter 3. Boot</title><link rel="stylesheet" href="s.css"/></head><body>
<div class="navheader"><table width="100%"><tr><th colspan="3" align="center">Chapter 3. Boot</th></tr><tr><td><a accesskey="p" href="ch02.html">Prev</a></td><td> </td><td><a accesskey="n" href="ch04.html">Next</a></td></tr></table><hr/></div>
<div class="chapter"><div class="titlepage"><div><div><h1 class="title"><a id="_boot"/>Chapter 3. Boot</h1></div></div></div>
<p>${words.repeat(3)}</p>
<div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="_loader"/>3.1. The boot loader</h2></div></div></div>
<p>${words.repeat(2)}<br/>It reads <code class="filename">/boot/grub/grub.cfg</code>.</p></div></div>
<div class="navfooter"><a href="ch02.html">Prev</a> <a href="index.html">Home</a></div></body></html>`;
    expect(convertHtml(page)).toEqual({
      title: 'Chapter 3. Boot',
      markdown: `${words.repeat(3).trim()}\n\n## 3.1. The boot loader\n\n${words.repeat(2).trim()} It reads \`/boot/grub/grub.cfg\`.\n`,
    });
    expect(withXhtmlEmptyElements('<h2><a id="s1"/>Overview</h2><br/><img src="x.png" />')).toBe('<h2><a id="s1"></a>Overview</h2><br/><img src="x.png" />');
    expect([isXhtml(page), isXhtml('<!doctype html><html lang="en"><body><a id="x"/>A</body></html>')]).toEqual([true, false]);
  });

  it('reads a table that lays a note out as its text, and a table of data inside a note as a table', () => {
    const words = 'Keep a rescue medium at hand before you change the boot loader of a machine. ';
    const docbook = `<html><head><title>Boot</title></head><body><div class="chapter"><p>${words.repeat(4)}</p>
<div class="warning" style="margin-left: 0.5in"><table border="0" summary="Warning"><tr><td rowspan="2"><img alt="[Warning]" src="images/warning.png"/></td><th align="left">Warning</th></tr>
<tr><td align="left"><p>${words.repeat(2)}</p><p>Run <code>grub-install</code> again after it.</p></td></tr></table></div></div></body></html>`;
    expect(convertHtml(docbook).markdown).toBe(`${words.repeat(4).trim()}\n\nWarning\n\n${words.repeat(2).trim()}\n\nRun \`grub-install\` again after it.\n`);
    const data = '<main><p>Limits:</p><div class="note"><table><tr><th>Key</th><th>Default</th></tr><tr><td>max</td><td>5</td></tr></table></div><table role="presentation"><tr><td>Layout text.</td></tr></table></main>';
    expect(convertHtml(data).markdown).toBe('Limits:\n\n| Key | Default |\n| --- | --- |\n| max | 5 |\n\nLayout text.\n');
  });

  it('converts a page nested 1,900 deep, and refuses one nested 100,000 deep (with or without a main element) at once, by name', () => {
    const nested = (depth: number) => `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}<p>After.</p>`;
    expect(convertHtml(`<main>${nested(1900)}</main>`)).toEqual({ markdown: 'deep text\n\nAfter.\n' });
    expect(() => convertHtml(`<main>${nested(100_000)}</main>`)).toThrow(new HtmlTooDeepError());
    expect(() => convertHtml(nested(100_000))).toThrow('the page nests elements more than 2000 deep');
  });

  it('escapes text that markdown would read as a heading, list or quote', () => {
    expect(convertHtml('<main><p># not a heading</p><p>- not a list</p><p>&gt; not a quote</p></main>')).toEqual({
      markdown: '\\# not a heading\n\n\\- not a list\n\n\\> not a quote\n',
    });
  });

  it('collapses every kind of white space in inline text, also where one space is the rule', () => {
    const samples = ['a b', ' a b ', 'a  b', 'a\tb', 'a\nb', 'a\u00a0b', 'a\u2003b', 'a\u3000 b', '\ufeffa b', 'a \u200ab', 'a\u2028b', ''];
    expect(samples.map(collapseSpace)).toEqual(['a b', 'a b', 'a b', 'a b', 'a b', 'a b', 'a b', 'a b', 'a b', 'a b', 'a b', '']);
  });

  it('leaves out elements by their class list whether or not another element had it first', () => {
    const page = '<main><p class="x">Kept.</p><div class="sidebar x">Left out.</div><span class="sidebar x">Left out too.</span><p class="x">Kept too.</p></main>';
    expect(convertHtml(page)).toEqual({ markdown: 'Kept.\n\nKept too.\n' });
  });
});
