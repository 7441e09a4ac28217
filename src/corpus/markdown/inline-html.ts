/** Raw HTML in markdown text, as CommonMark defines it (tags, comments, processing instructions, declarations, CDATA). */
const HTML_TAG = (() => {
  const attributeName = '[a-zA-Z_:][a-zA-Z0-9:._-]*';
  const value = '(?:[^"\'=<>`\\x00-\\x20]+|\'[^\']*\'|"[^"]*")';
  const attribute = `(?:\\s+${attributeName}(?:\\s*=\\s*${value})?)`;
  const openTag = `<[A-Za-z][A-Za-z0-9\\-]*${attribute}*\\s*\\/?>`;
  const closeTag = '<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>';
  const comment = '<!---?>|<!--(?:[^-]|-[^-]|--[^>])*-->';
  const processing = '<[?][\\s\\S]*?[?]>';
  const declaration = '<![A-Za-z][^>]*>';
  const cdata = '<!\\[CDATA\\[[\\s\\S]*?\\]\\]>';
  return `(?:${openTag}|${closeTag}|${comment}|${processing}|${declaration}|${cdata})`;
})();

/** An inline Liquid tag (`{% include "x.md" %}`), which GitBook and Jekyll render away like a tag: on one line, at most 500 characters. */
const LIQUID_TAG = '\\{%[^\\n]{0,500}?%\\}';

/** ASCII punctuation: what a backslash escapes in markdown. */
const ESCAPABLE = /[!-/:-@[-`{-~]/;

/** One raw HTML span inside markdown text: `source.slice(start, end)` is the tag verbatim. */
export interface HtmlSpan {
  start: number;
  end: number;
}

/**
 * Finds the raw inline HTML (`<br>`, `<code>`, `</a>`, `<!-- ... -->`) and the inline Liquid tags
 * (`{% include "x.md" %}`) in markdown text between `start` and `end`, in order, the way a
 * CommonMark inline parser sees HTML: not inside a code span, not escaped (`\<b>`), not an
 * autolink (`<https://x>`) or a link destination (`[a](<b c>)`). One pass; code spans are
 * matched with a table of backtick runs, so unmatched backticks do not make it quadratic.
 *
 * @example
 * findInlineHtml('Use <kbd>Ctrl</kbd>, not `<b>`.', 0, 31); // [{ start: 4, end: 9 }, { start: 13, end: 19 }]
 */
export function findInlineHtml(source: string, start: number, end: number): HtmlSpan[] {
  const spans: HtmlSpan[] = [];
  const codeSpans = createCodeSpanFinder(source, start, end);
  const tag = new RegExp(HTML_TAG, 'y');
  const liquid = new RegExp(LIQUID_TAG, 'y');
  let at = start;
  while (at < end) {
    const next = nextSpecial(source, at, end);
    if (next === -1) break;
    const char = source[next];
    if (char === '\\') {
      at = next + (next + 1 < end && ESCAPABLE.test(source[next + 1]!) ? 2 : 1);
    } else if (char === '`') {
      at = codeSpans.skip(next);
    } else if (char === '{') {
      liquid.lastIndex = next;
      const match = liquid.exec(source);
      if (match && next + match[0].length <= end) spans.push({ start: next, end: next + match[0].length });
      at = match && next + match[0].length <= end ? next + match[0].length : next + 1;
    } else {
      tag.lastIndex = next;
      const match = source[next - 1] === '(' && source[next - 2] === ']' ? null : tag.exec(source);
      if (match && next + match[0].length <= end) {
        spans.push({ start: next, end: next + match[0].length });
        at = next + match[0].length;
      } else {
        at = next + 1;
      }
    }
  }
  return spans;
}

/**
 * The end of the raw HTML that starts at `at` (a tag, comment, processing instruction,
 * declaration or CDATA, as CommonMark defines them), or -1 when none does.
 *
 * @example
 * htmlEnd('a <b class="x">c', 2); // 15
 * htmlEnd('a < b', 2); // -1
 */
export function htmlEnd(source: string, at: number): number {
  const tag = new RegExp(HTML_TAG, 'y');
  tag.lastIndex = at;
  const match = tag.exec(source);
  return match ? at + match[0].length : -1;
}

/** Position of the next `\`, backtick, `<` or `{%` in `[from, end)`, or -1. */
function nextSpecial(source: string, from: number, end: number): number {
  for (let at = from; at < end; at++) {
    const code = source.charCodeAt(at);
    if (code === 0x5c || code === 0x60 || code === 0x3c || (code === 0x7b && source.charCodeAt(at + 1) === 0x25)) return at;
  }
  return -1;
}

/**
 * Code spans of a text: `skip(at)` is the position after the code span opening at the backtick
 * run at `at` (its matching run of the same length), or after the run itself when nothing
 * closes it. Runs are listed once, by length, and each list is walked forward only.
 */
function createCodeSpanFinder(source: string, start: number, end: number): { skip(at: number): number } {
  let runsByLength: Map<number, number[]> | undefined;
  const cursors = new Map<number, number>();
  const runLength = (at: number) => {
    let after = at;
    while (after < end && source.charCodeAt(after) === 0x60) after++;
    return after - at;
  };
  const listRuns = () => {
    const runs = new Map<number, number[]>();
    for (let at = source.indexOf('`', start); at !== -1 && at < end; ) {
      const length = runLength(at);
      const list = runs.get(length) ?? [];
      list.push(at);
      runs.set(length, list);
      at = source.indexOf('`', at + length);
    }
    return runs;
  };
  return {
    skip(at) {
      const length = runLength(at);
      runsByLength ??= listRuns();
      const list = runsByLength.get(length) ?? [];
      let cursor = cursors.get(length) ?? 0;
      while (cursor < list.length && list[cursor]! <= at) cursor++;
      cursors.set(length, cursor);
      const closing = list[cursor];
      return closing === undefined ? at + length : closing + length;
    },
  };
}
