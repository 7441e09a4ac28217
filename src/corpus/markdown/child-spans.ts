// The items of a list and the rows of a table as spans of a page (blocks.ts `Block.children`),
// and the parts of a list item that holds lists, so that the chunker can cut an item too long for
// one chunk between the items it holds.
import { applyEdits, type Edit, type MarkupBlock } from './block-markup.ts';
import type { LineTable } from './line-table.ts';
import type Token from 'markdown-it/lib/token.mjs';

/** Offsets and source lines of a part of the body. */
export interface Span {
  /** Offsets into the body: `body.slice(start, end)` is the span verbatim. */
  start: number;
  end: number;
  /** 1-based lines in the source file. */
  startLine: number;
  endLine: number;
}

/**
 * An item of a list or a row of a table. A list item that holds a nested list has `parts`: its
 * text before, between and after the nested list's items, and those items (each with its own
 * `parts`), in order, so that an item too long for one chunk can be cut between the items it holds.
 */
export interface ChildSpan extends Span {
  text: string;
  gapBefore: string;
  parts?: ChildSpan[];
}

/** The items of a list or the rows of a table (header row first), rendered, with the whitespace between them. */
export function childSpans(body: string, tokens: Token[], block: MarkupBlock, lines: LineTable, edits: readonly Edit[], lineOffset: number): ChildSpan[] {
  const childType = block.type === 'list' ? 'list_item_open' : 'tr_open';
  const childLevel = block.type === 'list' ? 1 : 2;
  const spans: ChildSpan[] = [];
  let editIndex = 0;
  let previousEnd: number | undefined;
  for (let index = block.first + 1; index < block.last; index++) {
    const token = tokens[index]!;
    if (token.type !== childType || token.level !== childLevel || !token.map) continue;
    const span = lines.span(token.map[0], token.map[1], false);
    if (!span) continue;
    while (editIndex < edits.length && edits[editIndex]!.start < span.start) editIndex++;
    const child: ChildSpan = {
      start: span.start,
      end: span.end,
      startLine: span.startLine + lineOffset,
      endLine: span.endLine + lineOffset,
      text: applyEdits(body, span.start, span.end, edits, editIndex),
      gapBefore: previousEnd === undefined ? '' : body.slice(previousEnd, span.start),
    };
    if (block.type === 'list') {
      const parts = itemParts({ body, tokens, lines, edits, lineOffset }, index, span);
      if (parts !== undefined) child.parts = parts;
    }
    spans.push(child);
    previousEnd = span.end;
  }
  return spans;
}

/** What {@link itemParts} reads a page's items from. */
interface ItemSource {
  body: string;
  tokens: Token[];
  lines: LineTable;
  edits: readonly Edit[];
  lineOffset: number;
}

/**
 * The parts of the list item opened at token `open` (see {@link ChildSpan.parts}): the items of
 * the lists it holds, each with its own parts, and the text around them; undefined for an item
 * that holds no list. Every part is an exact span of the page, its lines its own.
 */
function itemParts(source: ItemSource, open: number, item: Span): ChildSpan[] | undefined {
  const { body, tokens, lines, edits, lineOffset } = source;
  const level = tokens[open]!.level;
  const nested: Array<{ index: number; span: NonNullable<ReturnType<LineTable['span']>> }> = [];
  for (let index = open + 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.level === level && token.type === 'list_item_close') break;
    if (token.type !== 'list_item_open' || token.level !== level + 2 || !token.map) continue;
    const span = lines.span(token.map[0], token.map[1], false);
    if (span) nested.push({ index, span });
  }
  if (nested.length === 0) return undefined;
  const parts: ChildSpan[] = [];
  let previousEnd: number | undefined;
  const push = (start: number, end: number, startLine: number, endLine: number): ChildSpan => {
    const part: ChildSpan = { start, end, startLine: startLine + lineOffset, endLine: endLine + lineOffset, text: applyEdits(body, start, end, edits), gapBefore: previousEnd === undefined ? '' : body.slice(previousEnd, start) };
    parts.push(part);
    previousEnd = end;
    return part;
  };
  // The item's own text around its nested items, trimmed to what is not white space.
  const text = (from: number, to: number) => {
    let start = from;
    let end = to;
    while (start < end && /\s/.test(body.charAt(start))) start++;
    while (end > start && /\s/.test(body.charAt(end - 1))) end--;
    if (start < end) push(start, end, lineAt(lines, start), lineAt(lines, end - 1));
  };
  let cursor = item.start;
  for (const { index, span } of nested) {
    text(cursor, span.start);
    const part = push(span.start, span.end, span.startLine, span.endLine);
    const inner = itemParts(source, index, span);
    if (inner !== undefined) part.parts = inner;
    cursor = span.end;
  }
  text(cursor, item.end);
  return parts;
}

/** The 0-based line of `offset` in the table's text. */
function lineAt(lines: LineTable, offset: number): number {
  let low = 0;
  let high = lines.count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lines.start(middle) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
