// The markup inside a block replaced by what it reads as: inline HTML tags by their text (placeholders
// such as `<queue>` kept), HTML blocks and directives nested in a list or quote by their text or label.
import { withDirectivesRead, type Directive } from './directives.ts';
import { closingTagNames, inlineHtmlText, isPlaceholderTag } from './html.ts';
import { findInlineHtml } from './inline-html.ts';
import type { LineTable } from './line-table.ts';

import type Token from 'markdown-it/lib/token.mjs';

/** A top-level block's type, source span (offsets into the body) and tokens (`tokens[first..last]`, the opening token to the closing one). */
export interface MarkupBlock {
  type: string;
  start: number;
  end: number;
  first: number;
  last: number;
}

/** One replacement of source text: an HTML node by its readable text. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Whether a block's source may hold markup to replace: HTML, Liquid tags, or directives nested in a list or quote.
 *
 * @example
 * mayHoldMarkup('paragraph', 'a <b>b</b>'); // true
 * mayHoldMarkup('code', '<b>'); // false: code is left as it is
 */
export function mayHoldMarkup(type: string, source: string): boolean {
  if (type === 'html' || type === 'directive' || type === 'code') return false;
  return source.includes('<') || source.includes('{%') || ((type === 'list' || type === 'blockquote') && source.includes(':::'));
}

/**
 * Replacements for the markup inside a block, in document order: each inline tag by its text
 * (usually nothing, a line break for `<br>`; in a table or a heading, on one line) unless it is a
 * placeholder (`<queue>`, see `isPlaceholderTag`), each inline Liquid tag by nothing, each HTML
 * block nested in a list or quote by its readable text, and each directive nested there by its
 * label or nothing. Code is left as it is.
 *
 * @example
 * markupEdits('Text <br> more', tokens, paragraph, lines, () => false);
 * // [{ start: 5, end: 9, text: '\n' }]
 */
export function markupEdits(body: string, tokens: Token[], block: MarkupBlock, lines: LineTable, inTabs: (line: number) => boolean): Edit[] {
  const oneLine = block.type === 'table' || block.type === 'heading';
  const edits: Edit[] = [];
  let closed: Set<string> | undefined;
  const addInline = (start: number, end: number) => {
    for (const span of findInlineHtml(body, start, end)) {
      const tag = body.slice(span.start, span.end);
      closed ??= closingTagNames(body.slice(block.start, block.end));
      if (isPlaceholderTag(tag, closed)) continue;
      const text = inlineHtmlText(tag);
      edits.push({ ...span, text: oneLine ? text.replace(/\n/g, ' ') : text });
    }
  };
  if (block.type !== 'list' && block.type !== 'blockquote') {
    addInline(block.start, block.end);
    return edits;
  }
  let scannedUntil = 0;
  for (let index = block.first + 1; index < block.last; index++) {
    const token = tokens[index]!;
    if (!token.map || token.map[0] < scannedUntil) continue;
    if (token.type === 'directive') {
      edits.push(directiveEdit(body, lines, token, block.start));
      continue;
    }
    if (token.type !== 'inline' && token.type !== 'tr_open' && token.type !== 'html_block') continue;
    const span = lines.span(token.map[0], token.map[1], false);
    if (!span) continue;
    scannedUntil = token.map[1];
    if (token.type !== 'html_block') {
      addInline(span.start, span.end);
      continue;
    }
    const start = body.indexOf('<', lines.start(token.map[0]));
    if (start === -1 || start >= span.end) continue;
    const text = withDirectivesRead(inlineHtmlText(token.content.replace(/\n$/, '')), inTabs(token.map[0]));
    edits.push(text === '' ? removal(body, { start, end: span.end }, block.start) : { start, end: span.end, text });
  }
  return edits;
}

/** A directive nested in a list or quote: its text replaced by its label, or removed. */
function directiveEdit(body: string, lines: LineTable, token: Token, blockStart: number): Edit {
  const line = token.map![0];
  const end = line + 1 < lines.count ? lines.start(line + 1) - 1 : body.length;
  const start = end - token.content.length;
  const { label } = token.meta as Directive;
  return label === undefined ? removal(body, { start, end }, blockStart) : { start, end, text: label };
}

/**
 * Removes markup that renders nothing: when it fills its lines (nothing but indentation before
 * it), with those lines and the line break before them (after them, on the block's first line),
 * so no blank line is left behind; else only the markup itself.
 */
function removal(body: string, span: { start: number; end: number }, blockStart: number): Edit {
  const lineStart = body.lastIndexOf('\n', span.start - 1) + 1;
  if (body.slice(lineStart, span.start).trim() !== '' || (body[span.end] !== undefined && body[span.end] !== '\n')) return { ...span, text: '' };
  if (lineStart > blockStart) return { start: lineStart - 1, end: span.end, text: '' };
  return { start: Math.max(lineStart, blockStart), end: Math.min(span.end + 1, body.length), text: '' };
}

/**
 * `body.slice(start, end)` with the edits that fall inside applied (`edits` in document order, from index `from`).
 *
 * @example
 * applyEdits('a <b>b</b>', 0, 10, [{ start: 2, end: 5, text: '' }, { start: 6, end: 10, text: '' }]); // 'a b'
 */
export function applyEdits(body: string, start: number, end: number, edits: readonly Edit[], from = 0): string {
  let text = '';
  let at = start;
  for (let index = from; index < edits.length; index++) {
    const edit = edits[index]!;
    if (edit.start >= end) break;
    if (edit.start < at) continue;
    text += body.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return text + body.slice(at, end);
}
