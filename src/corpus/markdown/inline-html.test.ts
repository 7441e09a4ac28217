import { describe, expect, it } from 'vitest';
import { findInlineHtml } from './inline-html.ts';

const tags = (text: string) => findInlineHtml(text, 0, text.length).map((span) => text.slice(span.start, span.end));

describe('findInlineHtml', () => {
  it('finds tags, comments and declarations, not code spans, escapes, autolinks or link destinations', () => {
    expect(tags('Use <kbd>Ctrl</kbd>, not `<b>`, \\<em> or <https://x.y/z> or [a](<b c>) <!-- c --> <?php x ?> <!DOCTYPE html>.')).toEqual([
      '<kbd>',
      '</kbd>',
      '<!-- c -->',
      '<?php x ?>',
      '<!DOCTYPE html>',
    ]);
  });

  it('reads a tag whose attributes span lines, and stops at the end given', () => {
    const text = 'a <img\n  src="x.png"\n  alt=\'y\'> b <i>';
    expect(tags(text)).toEqual(['<img\n  src="x.png"\n  alt=\'y\'>', '<i>']);
    expect(findInlineHtml(text, 0, text.length - 1)).toEqual([{ start: 2, end: 31 }]);
  });

  it('pairs backtick runs of the same length, across lines; an unmatched run is text', () => {
    expect(tags('a ` <i>0\na ` <i>1\na ` <i>2')).toEqual(['<i>', '<i>']);
    expect(tags('``code `` with <b>`` ``` <i>')).toEqual(['<b>', '<i>']);
    expect(tags('``` never closed <u>')).toEqual(['<u>']);
  });

  it('stays linear on 40k unmatched backticks and tags', () => {
    const text = Array.from({ length: 40_000 }, (_, n) => `x \` <i>${n}`).join('\n');
    const spans = findInlineHtml(text, 0, text.length);
    // Backticks pair line by line: every second line's tag is outside a code span.
    expect(spans.length).toBe(20_000);
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe('<i>');
  });
});
