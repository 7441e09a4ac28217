import { markdownLink } from './markdown-writer.ts';

/** A run of text as pdf.js places it on a page (`getTextContent` items, reduced). */
export interface PdfTextItem {
  text: string;
  /** Left edge and baseline, in PDF units (y grows upwards). */
  x: number;
  y: number;
  /** Type size and advance width, in PDF units. */
  size: number;
  width: number;
  /** The target of the link the item is the text of (a link annotation over it), if any. */
  href?: string;
  /** Set in a monospace font. */
  monospace?: boolean;
  /** The first text of a list item whose label (a bullet) is drawn, not written (see `textItems`). */
  listLabel?: boolean;
}

/** A link annotation of a page: its rectangle (x1, y1, x2, y2 in PDF units) and its target. */
export interface PdfLink {
  rect: number[];
  href: string;
}

/**
 * Items split at their links: the part of an item's text under a link's rectangle (pdf.js joins
 * the runs of a line into one item, a link's text among them) becomes an item of its own with the
 * link's target. Where the rectangle's edges fall is estimated from the item's mean character
 * width and moved to the nearest word boundary.
 *
 * @example
 * linkItems([{ text: 'See the job key', x: 40, y: 520, size: 10, width: 68 }], [{ rect: [60, 518, 115, 530], href: '/job-key.md' }]).map((item) => item.text);
 * // ['See ', 'the job key']
 */
export function linkItems(items: PdfTextItem[], links: PdfLink[]): PdfTextItem[] {
  return links.length === 0 ? items : items.flatMap((item) => splitAtLinks(item, links));
}

function splitAtLinks(item: PdfTextItem, links: PdfLink[]): PdfTextItem[] {
  const y = item.y + item.size * 0.3;
  const charWidth = item.width / Math.max(1, item.text.length);
  const spans: Array<{ start: number; end: number; href: string }> = [];
  for (const { rect, href } of links) {
    const [left, right] = [Math.min(rect[0]!, rect[2]!), Math.max(rect[0]!, rect[2]!)];
    if (y < Math.min(rect[1]!, rect[3]!) || y > Math.max(rect[1]!, rect[3]!) || right <= item.x || left >= item.x + item.width || charWidth <= 0) continue;
    const start = wordBoundary(item.text, (left - item.x) / charWidth);
    const end = wordBoundary(item.text, (right - item.x) / charWidth);
    if (end > start) spans.push({ start, end, href });
  }
  if (spans.length === 0) return [item];
  const pieces: PdfTextItem[] = [];
  const piece = (from: number, to: number, href?: string) => {
    if (to <= from) return;
    const part: PdfTextItem = { ...item, text: item.text.slice(from, to), x: item.x + from * charWidth, width: (to - from) * charWidth };
    if (href !== undefined) part.href = href;
    pieces.push(part);
  };
  let at = 0;
  for (const span of spans.sort((left, right) => left.start - right.start)) {
    if (span.start < at) continue;
    piece(at, span.start);
    piece(span.start, span.end, span.href);
    at = span.end;
  }
  piece(at, item.text.length);
  return pieces;
}

/** The word boundary (a start or end of the text, or beside a space) nearest to a character position. */
function wordBoundary(text: string, position: number): number {
  let best = 0;
  for (let at = 0; at <= text.length; at++) {
    const boundary = at === 0 || at === text.length || text[at] === ' ' || text[at - 1] === ' ';
    if (boundary && Math.abs(at - position) < Math.abs(best - position)) best = at;
  }
  return best;
}

/** One line of a page: its text in reading order and where it stands. */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  /** The type size of most of its characters, those in a monospace font left out when it has others. */
  size: number;
  page: number;
  /** The text with its links as markdown links and its monospace runs as code spans, when it has either. */
  markdown?: string;
  /** The type size of most of its monospace characters (not rounded), when it has some. */
  monospaceSize?: number;
  /**
   * When every run of the line is in a monospace font: its text laid out in columns (a run's
   * place from the left edge in characters, spaces between), and the width of a character.
   */
  code?: { text: string; charWidth: number };
  /** It starts a list item whose bullet is drawn (see `textItems`). */
  listItem?: boolean;
}

/**
 * The lines of one page, top to bottom, each read left to right: items whose baselines lie
 * within 40% of their type size of each other are one line; pieces of a word (a ligature set
 * apart: "Sta" "ff") are joined without a space, pieces further apart than a fifth of the type
 * size with one.
 *
 * @example
 * pageLines([{ text: 'b', x: 0, y: 10, size: 10, width: 5 }, { text: 'a', x: 0, y: 30, size: 10, width: 5 }], 1).map((line) => line.text); // ['a', 'b']
 */
export function pageLines(items: PdfTextItem[], page: number): PdfLine[] {
  const sorted = items.filter((item) => item.text.trim() !== '' && item.size > 0).sort((left, right) => right.y - left.y || left.x - right.x);
  const groups: PdfTextItem[][] = [];
  for (const item of sorted) {
    const group = groups.at(-1);
    if (group !== undefined && Math.abs(group[0]!.y - item.y) <= Math.max(group[0]!.size, item.size) * 0.4) group.push(item);
    else groups.push([item]);
  }
  return groups.map((group) => lineOf(group.sort((left, right) => left.x - right.x), page));
}

/** A run of a line's text: its items' text with the space before it, all of one link and font kind. */
interface Run {
  text: string;
  href?: string;
  monospace: boolean;
}

function lineOf(items: PdfTextItem[], page: number): PdfLine {
  const runs: Run[] = [];
  let end = -Infinity;
  for (const item of items) {
    const gap = item.x - end;
    const last = runs.at(-1);
    const space = last !== undefined && gap > item.size * 0.2 && !last.text.endsWith(' ') && !item.text.startsWith(' ') ? ' ' : '';
    const monospace = item.monospace === true;
    if (last !== undefined && last.href === item.href && last.monospace === monospace) last.text += space + item.text;
    else runs.push({ text: space + item.text, href: item.href, monospace });
    end = item.x + item.width;
  }
  const text = runs.map((run) => run.text).join('');
  const proportional = items.filter((item) => item.monospace !== true);
  const line: PdfLine = { text: text.replace(/\s+/g, ' ').trim(), x: items[0]!.x, y: items[0]!.y, size: Math.round(mostCharsSize(proportional.length > 0 ? proportional : items) * 2) / 2, page };
  if (proportional.length < items.length) line.monospaceSize = mostCharsSize(items.filter((item) => item.monospace === true));
  if (proportional.length === 0) line.code = codeColumns(items);
  if (items.some((item) => item.listLabel === true)) line.listItem = true;
  if (runs.some((run) => run.href !== undefined || run.monospace)) line.markdown = runsMarkdown(runs).replace(/\s+/g, ' ').trim();
  return line;
}

/** The type size of the item with the most characters. */
function mostCharsSize(items: PdfTextItem[]): number {
  let sizeChars = 0;
  let size = 0;
  for (const item of items) {
    const chars = item.text.trim().length;
    if (chars > sizeChars) [sizeChars, size] = [chars, item.size];
  }
  return size;
}

/** A monospace line laid out in columns: each item at its place from the line's left edge, counted in characters. */
function codeColumns(items: PdfTextItem[]): { text: string; charWidth: number } {
  const chars = items.reduce((sum, item) => sum + item.text.length, 0);
  const charWidth = items.reduce((sum, item) => sum + item.width, 0) / Math.max(1, chars);
  let text = '';
  for (const item of items) {
    const column = charWidth > 0 ? Math.round((item.x - items[0]!.x) / charWidth) : text.length;
    text += ' '.repeat(Math.max(0, column - text.length)) + item.text;
  }
  return { text: text.trimEnd(), charWidth };
}

/** Runs as markdown: a monospace run as a code span, the runs of one link as a markdown link (the whitespace around each kept outside). */
function runsMarkdown(runs: Run[]): string {
  let markdown = '';
  for (let at = 0; at < runs.length; ) {
    const href = runs[at]!.href;
    let text = '';
    for (; at < runs.length && runs[at]!.href === href; at++) text += runs[at]!.monospace ? codeSpan(runs[at]!.text) : runs[at]!.text;
    markdown += href === undefined ? text : markdownLink(text, href);
  }
  return markdown;
}

/**
 * Text as an inline code span, the whitespace around it kept outside: fenced with one backtick
 * more than its longest run of backticks, padded with a space when it starts or ends with one.
 *
 * @example
 * codeSpan(' vi.fn() '); // ' `vi.fn()` '
 */
export function codeSpan(text: string): string {
  const code = text.trim();
  if (code === '') return text;
  const fence = '`'.repeat(Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${/^\s*/.exec(text)![0]}${fence}${pad}${code}${pad}${fence}${/\s*$/.exec(text)![0]}`;
}

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página)\s*)?(?:\d{1,5}|[ivxlcdm]{1,7})(?:\s*(?:of|\/|von|de)\s*\d{1,5})?$/i;

/**
 * Pages without their running headers and footers and page numbers: a line among the first two
 * or last two of a page is dropped when it is a page number ("12", "Page 3 of 40", "iv") or when
 * the same text (digits aside) stands at the top or bottom of at least half the pages (and two).
 * A document of one page has no such repetition: there a line at the top or bottom that ends with
 * the page's own place (`file:///site/mode.html 1/1`, as a browser prints its footer) is dropped,
 * and with it a line at the other end in its type size when that is smaller than the page's text
 * (the header printed with it: the date and the title).
 *
 * @example
 * dropRunningLines([[line('Handbook'), line('Text one.'), line('1')], [line('Handbook'), line('Text two.'), line('2')]]);
 * // [[Text one.], [Text two.]]
 */
export function dropRunningLines(pages: PdfLine[][]): PdfLine[][] {
  const key = (line: PdfLine) => line.text.toLowerCase().replace(/\d+/g, '#');
  const edges = (lines: PdfLine[]) => new Set([...lines.slice(0, 2), ...lines.slice(-2)]);
  const counts = new Map<string, number>();
  for (const lines of pages) for (const seen of new Set([...edges(lines)].map(key))) counts.set(seen, (counts.get(seen) ?? 0) + 1);
  const least = Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((lines, index) => {
    const edge = edges(lines);
    const placed = pages.length === 1 ? placeLines(lines) : new Set<PdfLine>();
    return lines.filter((line) => !placed.has(line) && !(edge.has(line) && (PAGE_NUMBER.test(line.text) || (counts.get(key(line)) ?? 0) >= least)));
  });
}

/** `... 1/1`, `Page 1 of 1`: the place of the only page of a document at the end of a line. */
const ONLY_PAGE = /(?:^|\s)(?:page\s*)?1\s*(?:\/|of)\s*1$/i;

/** The lines of a document's only page that are its running footer (ending with its place) and the header in the footer's type size. */
function placeLines(lines: PdfLine[]): Set<PdfLine> {
  const [top, bottom] = [lines.slice(0, 2), lines.slice(-2)];
  for (const [ends, other] of [[bottom, top], [top, bottom]] as const) {
    const footer = ends.find((line) => ONLY_PAGE.test(line.text));
    if (footer === undefined) continue;
    // The page's text size: that of most characters outside the footer's size.
    const chars = new Map<number, number>();
    for (const line of lines) if (line.size !== footer.size) chars.set(line.size, (chars.get(line.size) ?? 0) + line.text.length);
    const text = [...chars].sort((left, right) => right[1] - left[1])[0]?.[0] ?? 0;
    const header = footer.size < text ? other.find((line) => line !== footer && line.size === footer.size) : undefined;
    return new Set(header === undefined ? [footer] : [footer, header]);
  }
  return new Set();
}
