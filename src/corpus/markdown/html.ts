/** Tags that end a line of text: their inner texts stay on separate lines. */
const LINE_TAGS = /<\/?(?:address|article|aside|blockquote|br|caption|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|nav|ol|p|pre|section|summary|table|tbody|tfoot|thead|tr|ul)\b[^<>]*>/gi;

/** The named entities documentation writes in prose. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '\u2014', ndash: '\u2013',
  ldquo: '\u201c', rdquo: '\u201d', lsquo: '\u2018', rsquo: '\u2019', hellip: '\u2026', copy: '\u00a9',
  times: '\u00d7', rarr: '\u2192', larr: '\u2190',
};

/**
 * The readable text of an HTML fragment: comments, `<script>`/`<style>` contents and every tag are
 * removed, inner text is kept (a `<summary>`'s text, the cells of an HTML table, separated by a
 * space), block-level tags and `<br>` become line breaks, a few common entities are decoded, and
 * blank lines are dropped. Pure markup (`<img ...>`, `<a name="x"></a>`, `<!-- ... -->`) gives `''`.
 *
 * @example
 * htmlToText('<details>\n<summary>Click to view <code>ca.pem</code></summary>'); // 'Click to view ca.pem'
 * htmlToText('<p align="center"><img src="logo.svg" /></p>'); // ''
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
    .replace(/<\/t[dh]\s*>/gi, ' ')
    .replace(LINE_TAGS, '\n')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * Names of the HTML elements documentation writes: a bare `<name>` that is none of these, never
 * closed, is a placeholder (see {@link isPlaceholderTag}). Words that are as often placeholders
 * (`<path>`, `<title>`, `<data>`, `<label>`, `<source>`, `<option>`) are left out: written bare,
 * they are read as placeholders too.
 */
const HTML_ELEMENTS = new Set(
  ('a abbr address article aside audio b bdi bdo big blockquote body br button caption center cite code col colgroup ' +
    'dd del details dfn dialog div dl dt em embed figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr ' +
    'html i iframe img input ins kbd li main mark meta nav noscript ol p picture pre q rp rt ruby s samp script ' +
    'section small span strike strong style sub summary sup svg table tbody td tfoot th thead tr tt u ul var video wbr').split(' '),
);

/** A bare opening tag: a name and nothing else (`<queue>`, `<your-token>`, `<T>`). */
const BARE_TAG = /^<([A-Za-z][A-Za-z0-9-]*)\s*>$/;

/**
 * The tag names a text closes (`</Badge>` gives `Badge`), in one pass: what
 * {@link isPlaceholderTag} needs to know of the text around a tag.
 *
 * @example
 * closingTagNames('<Box>Test file</Box> and <queue>'); // Set { 'Box' }
 */
export function closingTagNames(text: string): Set<string> {
  const names = new Set<string>();
  if (!text.includes('</')) return names;
  for (const match of text.matchAll(/<\/([A-Za-z][A-Za-z0-9-]*)\s*>/g)) names.add(match[1]!);
  return names;
}

/**
 * Whether an inline tag is a placeholder in angle brackets (`<queue>`, `<your-token>`, `<n>`,
 * a type parameter `<T>`) that the text means literally, rather than markup: a bare opening tag,
 * with no attributes and not self-closing, whose name is no HTML element and which nothing in
 * the text around it closes (`closed`, see {@link closingTagNames}). Components and elements
 * (`<Badge type="info">`, `<CRoot />`, `<Box>...</Box>`, `<kbd>`) are markup.
 *
 * @example
 * isPlaceholderTag('<queue>', new Set()); // true
 * isPlaceholderTag('<Box>', new Set(['Box'])); // false: closed by a </Box>
 * isPlaceholderTag('<kbd>', new Set()); // false: an HTML element
 */
export function isPlaceholderTag(tag: string, closed: ReadonlySet<string>): boolean {
  const name = BARE_TAG.exec(tag)?.[1];
  return name !== undefined && !HTML_ELEMENTS.has(name.toLowerCase()) && !closed.has(name);
}

/**
 * What an inline HTML node inside markdown text (a paragraph, a heading, a table cell) becomes:
 * its text for a comment or tag (usually `''`), a line break for `<br>`; an inline Liquid tag
 * (`{% include "x.md" %}`) gives `''` too.
 *
 * @example
 * inlineHtmlText('<code>'); // ''
 * inlineHtmlText('<br/>'); // '\n'
 */
export function inlineHtmlText(html: string): string {
  if (/^<br\b/i.test(html)) return '\n';
  if (html.startsWith('{%')) return '';
  return htmlToText(html);
}

/**
 * HTML character references decoded: the common named ones, decimal and hex; unknown or invalid
 * ones stay as written. Markdown passes them through, so the corpus, the offline planner's answer
 * text and the eval's fact matching all decode them here.
 *
 * @example
 * decodeEntities('won&apos;t &mdash; &#39;x&#x27;'); // "won't \u2014 'x'"
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}
