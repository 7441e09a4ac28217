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
  size: number;
  page: number;
  /** The text with its links as markdown links, when it has links. */
  markdown?: string;
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

function lineOf(items: PdfTextItem[], page: number): PdfLine {
  let text = '';
  // The same text with links: the runs of items of one link, each as a markdown link.
  let markdown = '';
  let linkText = '';
  let href: string | undefined;
  const endLink = () => {
    if (href !== undefined) markdown += markdownLink(linkText, href);
    linkText = '';
    href = undefined;
  };
  let end = -Infinity;
  let sizeChars = 0;
  let size = 0;
  for (const item of items) {
    const gap = item.x - end;
    const space = text !== '' && gap > item.size * 0.2 && !text.endsWith(' ') && !item.text.startsWith(' ') ? ' ' : '';
    if (item.href !== href) endLink();
    text += space + item.text;
    if (item.href === undefined) markdown += space + item.text;
    else {
      if (href === undefined) markdown += space;
      else linkText += space;
      href = item.href;
      linkText += item.text;
    }
    end = item.x + item.width;
    // The line's type size: that of most of its characters.
    const chars = item.text.trim().length;
    if (chars > sizeChars) {
      sizeChars = chars;
      size = item.size;
    }
  }
  endLink();
  const line: PdfLine = { text: text.replace(/\s+/g, ' ').trim(), x: items[0]!.x, y: items[0]!.y, size: Math.round(size * 2) / 2, page };
  if (items.some((item) => item.href !== undefined)) line.markdown = markdown.replace(/\s+/g, ' ').trim();
  return line;
}

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página)\s*)?(?:\d{1,5}|[ivxlcdm]{1,7})(?:\s*(?:of|\/|von|de)\s*\d{1,5})?$/i;

/**
 * Pages without their running headers and footers and page numbers: a line among the first two
 * or last two of a page is dropped when it is a page number ("12", "Page 3 of 40", "iv") or when
 * the same text (digits aside) stands at the top or bottom of at least half the pages (and two).
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
  return pages.map((lines) => {
    const edge = edges(lines);
    return lines.filter((line) => !(edge.has(line) && (PAGE_NUMBER.test(line.text) || (counts.get(key(line)) ?? 0) >= least)));
  });
}
